import { describe, expect, it } from 'vitest';

import { BANK_ACRONYMS, displayBankName, displayCompanyName, displaySurname } from './display-names.js';

describe('displaySurname', () => {
  it('title-cases Census surnames and restores the Mc prefix', () => {
    expect(['SMITH', 'OBRIEN', 'MCDONALD', 'MCCOY', 'NG', 'MC'].map(displaySurname)).toEqual([
      'Smith',
      'Obrien',
      'McDonald',
      'McCoy',
      'Ng',
      'Mc',
    ]);
  });

  it('leaves a name that already has lower case alone', () => {
    expect(displaySurname('DeLuca')).toBe('DeLuca');
  });
});

describe('displayCompanyName', () => {
  it.each([
    ['NVIDIA CORP', 'Nvidia Corp'],
    ['JPMORGAN CHASE & CO', 'Jpmorgan Chase & Co'],
    ['BANK OF AMERICA CORP /DE/', 'Bank of America Corp'],
    ['COSTCO WHOLESALE CORP /NEW', 'Costco Wholesale Corp'],
    ['TOYOTA MOTOR CORP/', 'Toyota Motor Corp'],
    ['VERTEX PHARMACEUTICALS INC / MA', 'Vertex Pharmaceuticals Inc'],
    ['US BANCORP \\DE\\', 'US Bancorp'],
    ['Siemens Energy AG/ADR', 'Siemens Energy AG'],
    ['Pandora A/S / ADR', 'Pandora A/S'],
    ['Blue Acquisition Corp/Cayman', 'Blue Acquisition Corp'],
    ['AT&T INC.', 'AT&T Inc.'],
    ['CVS HEALTH Corp', 'CVS Health Corp'],
    ['ELI LILLY & Co', 'Eli Lilly & Co'],
    ['HSBC HOLDINGS PLC', 'HSBC Holdings PLC'],
    ['MCDONALDS CORP', 'McDonalds Corp'],
    ['COMFORT SYSTEMS USA INC', 'Comfort Systems USA Inc'],
    ['THE WENDYS CO', 'The Wendys Co'],
    ['LEAD REAL ESTATE CO., LTD', 'Lead Real Estate Co., Ltd'],
    ['WELLS FARGO & COMPANY/MN', 'Wells Fargo & Company'],
  ])('%s → %s', (name, expected) => {
    expect(displayCompanyName(name)).toBe(expected);
  });

  it('keeps names the SEC already writes in mixed case, including their short acronyms', () => {
    expect(
      ['Apple Inc.', 'Meta Platforms, Inc.', 'GE Vernova Inc.', 'RTX Corp', 'Anheuser-Busch InBev SA/NV'].map(
        displayCompanyName,
      ),
    ).toEqual([
      'Apple Inc.',
      'Meta Platforms, Inc.',
      'GE Vernova Inc.',
      'RTX Corp',
      'Anheuser-Busch InBev SA/NV',
    ]);
  });
});

describe('displayBankName', () => {
  it.each([
    ['ALPS FEDERAL CREDIT UNION', 'Alps Federal Credit Union'],
    ['BANK OF THE WEST', 'Bank of the West'],
    ['TD BANK NA', 'TD Bank NA'],
    ['BANK OF AMERICA, N.A.', 'Bank of America, N.A.'],
    ["PEOPLE'S UNITED BANK", "People's United Bank"],
    ['1ST SOURCE BANK', '1st Source Bank'],
    ['FSB OF MCALLEN', 'FSB of McAllen'],
    ['Chase Bank', 'Chase Bank'],
    // Issue 25: the directory's abbreviations keep their capitals.
    ["COOPERATIVE EMPLOYEES' CU", "Cooperative Employees' CU"],
    ['FIRST SB OF INDIANA', 'First SB of Indiana'],
    ['TEXAS BK', 'Texas BK'],
    ['AMERICAN TBK', 'American TBK'],
    ['FIRST FIDELITY BANK OKC', 'First Fidelity Bank OKC'],
    ['MUFG UNION BANK, N.A.', 'MUFG Union Bank, N.A.'],
    ['BANK OZK', 'Bank OZK'],
    ['IBEW & UNITED WORKERS FCU', 'IBEW & United Workers FCU'],
  ])('%j reads %j', (name, shown) => {
    expect(displayBankName(name)).toBe(shown);
  });

  it('keeps every listed acronym in capitals, and title-cases the words that are not on the list', () => {
    for (const acronym of BANK_ACRONYMS) {
      expect(displayBankName(`FIRST ${acronym} BANK`), acronym).toBe(`First ${acronym} Bank`);
    }
    expect(displayBankName('ONE LA BANK')).toBe('One La Bank');
  });
});
