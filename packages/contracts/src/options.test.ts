import { describe, expect, it } from 'vitest';
import {
  BANK_ACCOUNT_TYPES,
  BANK_TENURES,
  BankAccountTypeSchema,
  BankTenureSchema,
  CONTACT_TIMES,
  CREDIT_SCORE_BANDS,
  ContactTimeSchema,
  CreditScoreSchema,
  DEFAULT_BANK_ACCOUNT_TYPE,
  DEFAULT_BANK_TENURE,
  DEFAULT_CONTACT_TIME,
  DEFAULT_DIRECT_DEPOSIT,
  DEFAULT_LOAN_AMOUNT,
  DEFAULT_LOAN_REASON,
  DIRECT_DEPOSIT_OPTIONS,
  DOB_MONTHS,
  DirectDepositSchema,
  EMAIL_DOMAIN_SUGGESTIONS,
  EMPLOYER_TENURES,
  EmployerTenureSchema,
  HOME_OWNERSHIP,
  HomeOwnershipSchema,
  INCOME_SOURCES,
  IncomeSourceSchema,
  LOAN_AMOUNTS,
  LOAN_REASONS,
  LoanAmountSchema,
  LoanReasonSchema,
  MONTHLY_INCOME_BANDS,
  MonthlyIncomeSchema,
  OWN_CAR_OPTIONS,
  OwnCarSchema,
  PAY_FREQUENCIES,
  PayFrequencySchema,
  RESIDENCE_DURATIONS,
  ResidenceDurationSchema,
  UNSECURED_DEBT_BANDS,
  UNSUBSCRIBE_REASONS,
  US_STATES,
  UnsecuredDebtSchema,
  UnsubscribeReasonSchema,
  UsStateCodeSchema,
  dobDayOptions,
  dobYearOptions,
  labelFor,
  toUsStateCode,
} from './options.js';

/** The message a schema gives for `input`, or undefined when it accepts it. */
function messageFor(
  schema: { safeParse(input: unknown): { error?: { issues: { message: string }[] } } },
  input: unknown,
) {
  return schema.safeParse(input).error?.issues[0]?.message;
}

const values = (options: readonly { value: unknown }[]) => options.map((option) => option.value);
const labels = (options: readonly { label: string }[]) => options.map((option) => option.label);

describe('loan amounts', () => {
  it('run $100–$900 by $100, then $1,000–$5,000 by $1,000 (docs/product-rules.md §loan-amounts)', () => {
    expect(values(LOAN_AMOUNTS)).toEqual([
      100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 2000, 3000, 4000, 5000,
    ]);
  });

  it('are labelled as dollars with a thousands separator', () => {
    expect(labelFor(LOAN_AMOUNTS, 100)).toBe('$100');
    expect(labelFor(LOAN_AMOUNTS, 1000)).toBe('$1,000');
    expect(labelFor(LOAN_AMOUNTS, 5000)).toBe('$5,000');
  });

  it('default to $500, which is on the list', () => {
    expect(DEFAULT_LOAN_AMOUNT).toBe(500);
    expect(LoanAmountSchema.parse(DEFAULT_LOAN_AMOUNT)).toBe(500);
  });

  it.each([undefined, null, ''])('rejects a missing amount (%j) with the spec message', (input) => {
    expect(messageFor(LoanAmountSchema, input)).toBe('Loan amount is required!');
  });

  it.each([99, 750, 5001, 6000, '500'])('rejects an amount not offered (%j) with the range', (input) => {
    expect(messageFor(LoanAmountSchema, input)).toBe('Please select a loan amount from $100 to $5,000');
  });
});

describe('loan reasons', () => {
  it('carry the spec values and labels, the misspelt renewable-energy value included', () => {
    expect(LOAN_REASONS.map((o) => [o.label, o.value])).toEqual([
      ['Auto Purchase', 'AUTO_PURCHASE'],
      ['Auto Repair', 'AUTO_REPAIR'],
      ['Home Improvement', 'HOME_IMPROVEMENT'],
      ['Debt Consolidation', 'DEBT_CONSOLIDATION'],
      ['Debt Settlement', 'DEBT_SETTLEMENT'],
      ['Credit Card Consolidation', 'CREDIT_CARD_CONSOLIDATION'],
      ['Small Business', 'BUSINESS'],
      ['Rent or Mortgage', 'RENT_OR_MORTGAGE'],
      ['Medical Expenses', 'MEDICAL'],
      ['Moving', 'MOVING'],
      ['Emergency Situation', 'EMERGENCY_SITUATION'],
      ['Education', 'EDUCATION'],
      ['Renewable Energy', 'RENEWABLE_ENGERGY'],
      ['Student Loan Refinance', 'STUDENT_LOAN_REFINANCE'],
      ['Taxes', 'TAXES'],
      ['Other', 'OTHER'],
    ]);
    expect(LoanReasonSchema.safeParse('RENEWABLE_ENERGY').success).toBe(false);
  });

  it('default to Debt Consolidation', () => {
    expect(DEFAULT_LOAN_REASON).toBe('DEBT_CONSOLIDATION');
  });

  it('reject a missing reason with the spec message', () => {
    expect(messageFor(LoanReasonSchema, undefined)).toBe('Loan reason is required!');
    expect(messageFor(LoanReasonSchema, '')).toBe('Loan reason is required!');
  });
});

describe('answer lists of spec §9', () => {
  it('residence durations are 1 Year … 10+ Years stored as months (docs/product-rules.md §option-lists)', () => {
    expect(RESIDENCE_DURATIONS.map((o) => [o.value, o.label])).toEqual([
      [120, '10+ Years'],
      [108, '9 Years'],
      [96, '8 Years'],
      [84, '7 Years'],
      [72, '6 Years'],
      [60, '5 Years'],
      [48, '4 Years'],
      [36, '3 Years'],
      [24, '2 Years'],
      [12, '1 Year'],
    ]);
  });

  it('home ownership stores Own as YES and Rent as NO', () => {
    expect(HOME_OWNERSHIP).toEqual([
      { value: 'YES', label: 'Own' },
      { value: 'NO', label: 'Rent' },
    ]);
  });

  it('income sources, pay frequencies, contact times and own car', () => {
    expect(values(INCOME_SOURCES)).toEqual(['EMPLOYMENT', 'SELF_EMPLOYMENT', 'MILITARY', 'BENEFITS']);
    expect(labelFor(INCOME_SOURCES, 'EMPLOYMENT')).toBe('Job income');
    expect(values(PAY_FREQUENCIES)).toEqual(['BIWEEKLY', 'TWICEMONTHLY', 'MONTHLY', 'WEEKLY']);
    expect(labelFor(PAY_FREQUENCIES, 'BIWEEKLY')).toBe('Every 2 weeks');
    expect(values(CONTACT_TIMES)).toEqual(['ANYTIME', 'MORNING', 'AFTERNOON', 'EVENING']);
    expect(DEFAULT_CONTACT_TIME).toBe('ANYTIME');
    expect(values(OWN_CAR_OPTIONS)).toEqual(['YES', 'NO']);
  });

  it('direct deposit is YES (electronic) or NO (paper check), default YES', () => {
    expect(values(DIRECT_DEPOSIT_OPTIONS)).toEqual(['YES', 'NO']);
    expect(labelFor(DIRECT_DEPOSIT_OPTIONS, 'YES')).toMatch(/electronic/);
    expect(labelFor(DIRECT_DEPOSIT_OPTIONS, 'NO')).toMatch(/paper check/);
    expect(DEFAULT_DIRECT_DEPOSIT).toBe('YES');
  });

  it('bank account types are SAVING and CHECKING, default CHECKING', () => {
    expect(values(BANK_ACCOUNT_TYPES)).toEqual(['SAVING', 'CHECKING']);
    expect(DEFAULT_BANK_ACCOUNT_TYPE).toBe('CHECKING');
  });

  it('bank tenures are 3, 6, 12, 24 and 30 months, default 30', () => {
    expect(values(BANK_TENURES)).toEqual([3, 6, 12, 24, 30]);
    expect(labelFor(BANK_TENURES, 30)).toBe('More than 2 years');
    expect(DEFAULT_BANK_TENURE).toBe(30);
  });

  it('credit score bands with their ranges', () => {
    expect(CREDIT_SCORE_BANDS.map((o) => [o.value, o.label])).toEqual([
      ['EXCELLENT', 'Excellent (720+)'],
      ['GOOD', 'Good (680-719)'],
      ['FAIR', 'Fair (640-679)'],
      ['POOR', 'Poor (639 or less)'],
    ]);
  });

  it('time at employer in months', () => {
    expect(EMPLOYER_TENURES.map((o) => [o.value, o.label])).toEqual([
      [60, '5 years or more'],
      [48, '3-4 years'],
      [24, '1-2 years'],
      [12, '3-12 months'],
      [3, '3 months or less'],
    ]);
  });

  it('monthly income bands stored as the lender values', () => {
    expect(MONTHLY_INCOME_BANDS.map((o) => [o.value, o.label])).toEqual([
      [10000, 'More than $5,500'],
      [5500, '$4,501-$5,500'],
      [4500, '$3,501-$4,500'],
      [3500, '$2,501-$3,500'],
      [2500, '$1,501-$2,500'],
      [1500, 'Less than $1,500'],
    ]);
  });

  it('unsecured debt bands with stable values', () => {
    expect(UNSECURED_DEBT_BANDS.map((o) => [o.value, o.label])).toEqual([
      ['NONE', 'None'],
      ['1000_4999', '$1,000-$4,999'],
      ['5000_9999', '$5,000-$9,999'],
      ['10000_20000', '$10,000-$20,000'],
      ['OVER_20000', 'Over $20,000'],
    ]);
  });

  it('unsubscribe reasons show the spec sentences', () => {
    expect(labels(UNSUBSCRIBE_REASONS)).toEqual([
      'I no longer wish to receive the messages',
      'I did not apply for a loan',
      'Messages are spam and should be reported',
      'Other',
    ]);
  });

  it('email domain suggestions are the list of docs/product-rules.md §option-lists', () => {
    expect(EMAIL_DOMAIN_SUGGESTIONS).toEqual([
      'gmail.com',
      'yahoo.com',
      'hotmail.com',
      'aol.com',
      'outlook.com',
      'icloud.com',
      'msn.com',
    ]);
  });

  it('every list has unique values and labels', () => {
    const lists = [
      LOAN_AMOUNTS,
      LOAN_REASONS,
      RESIDENCE_DURATIONS,
      HOME_OWNERSHIP,
      INCOME_SOURCES,
      PAY_FREQUENCIES,
      DIRECT_DEPOSIT_OPTIONS,
      BANK_ACCOUNT_TYPES,
      BANK_TENURES,
      CREDIT_SCORE_BANDS,
      EMPLOYER_TENURES,
      MONTHLY_INCOME_BANDS,
      UNSECURED_DEBT_BANDS,
      CONTACT_TIMES,
      OWN_CAR_OPTIONS,
      UNSUBSCRIBE_REASONS,
      US_STATES,
    ];
    for (const list of lists) {
      expect(new Set(values(list)).size).toBe(list.length);
      expect(new Set(labels(list)).size).toBe(list.length);
    }
  });
});

describe('selection schemas give the spec §5 message for a missing or unknown answer', () => {
  it.each([
    ['residence duration', ResidenceDurationSchema, 'Please select one option.'],
    ['own home', HomeOwnershipSchema, 'Please choose an answer'],
    ['time at employer', EmployerTenureSchema, 'Please choose an answer'],
    ['income source', IncomeSourceSchema, 'Please choose an answer'],
    ['pay frequency', PayFrequencySchema, 'Please choose an answer'],
    ['monthly income', MonthlyIncomeSchema, 'Please choose an answer'],
    ['direct deposit', DirectDepositSchema, 'Please choose an answer!'],
    ['credit score', CreditScoreSchema, 'Please select one option.'],
    ['bank type', BankAccountTypeSchema, 'Bank Account Type is required!'],
    ['bank length', BankTenureSchema, 'Please choose an answer'],
    ['debt amount', UnsecuredDebtSchema, 'Please select one option.'],
    ['own car', OwnCarSchema, 'Please select one option.'],
    ['best time to contact', ContactTimeSchema, 'Please select one option.'],
    ['issuing state', UsStateCodeSchema, 'Issuing state is required!'],
  ] as const)('%s', (_name, schema, message) => {
    expect(messageFor(schema, undefined)).toBe(message);
    expect(messageFor(schema, '')).toBe(message);
    expect(messageFor(schema, 'NOT_AN_OPTION')).toBe(message);
  });

  it.each([
    [
      'loan reason',
      LoanReasonSchema,
      'Loan reason is required!',
      'Please select a loan reason from the list',
    ],
    [
      'unsubscribe reason',
      UnsubscribeReasonSchema,
      'Unsubscribe reason is required!',
      'Please select an unsubscribe reason from the list',
    ],
  ] as const)(
    '%s: "required" when missing, the list when present but not on it',
    (_name, schema, required, invalid) => {
      expect(messageFor(schema, undefined)).toBe(required);
      expect(messageFor(schema, null)).toBe(required);
      expect(messageFor(schema, '')).toBe(required);
      expect(messageFor(schema, 'VACATION')).toBe(invalid);
    },
  );

  it('numeric lists take numbers, not the strings a select holds', () => {
    expect(ResidenceDurationSchema.parse(120)).toBe(120);
    expect(ResidenceDurationSchema.safeParse('120').success).toBe(false);
    expect(ResidenceDurationSchema.safeParse(0).success).toBe(false);
  });
});

describe('US states', () => {
  it('lists the 50 states and DC by two-letter code', () => {
    expect(US_STATES).toHaveLength(51);
    for (const state of US_STATES) expect(state.value).toMatch(/^[A-Z]{2}$/);
    expect(labelFor(US_STATES, 'CA')).toBe('California');
    expect(labelFor(US_STATES, 'DC')).toBe('District of Columbia');
    expect(UsStateCodeSchema.parse('DC')).toBe('DC');
  });

  it.each([
    ['CA', 'CA'],
    ['ca', 'CA'],
    [' California ', 'CA'],
    ['new york', 'NY'],
    ['Ontario', undefined],
    ['', undefined],
  ])('toUsStateCode(%j) is %j', (text, code) => {
    expect(toUsStateCode(text)).toBe(code);
  });
});

describe('date-of-birth selects', () => {
  it('offers the twelve months by number', () => {
    expect(DOB_MONTHS).toHaveLength(12);
    expect(DOB_MONTHS[0]).toEqual({ value: 1, label: 'January' });
    expect(DOB_MONTHS[11]).toEqual({ value: 12, label: 'December' });
  });

  it('counts 100 years down from the latest year that can make someone 18 today (docs/product-rules.md §date-of-birth)', () => {
    const years = dobYearOptions('2031-03-15');
    expect(years).toHaveLength(100);
    expect(years[0]).toEqual({ value: 2013, label: '2013' });
    expect(years[99]).toEqual({ value: 1914, label: '1914' });
  });

  it("offers the month's days, February 29 only in a leap year or before a year is chosen", () => {
    expect(dobDayOptions(1)).toHaveLength(31);
    expect(dobDayOptions(4)).toHaveLength(30);
    expect(dobDayOptions(2)).toHaveLength(29);
    expect(dobDayOptions(2, 2023)).toHaveLength(28);
    expect(dobDayOptions(2, 2024)).toHaveLength(29);
    expect(dobDayOptions(2, 1900)).toHaveLength(28);
  });
});
