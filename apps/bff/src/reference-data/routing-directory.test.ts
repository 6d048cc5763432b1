import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { loadRoutingDirectory, parseFedAchDirectory } from './routing-directory.js';

const dataDir =
  process.env.REFERENCE_DATA_DIR ?? fileURLToPath(new URL('../../../../../shared/data', import.meta.url));

describe('loadRoutingDirectory from FedACHdir.txt', async () => {
  const routing = await loadRoutingDirectory(dataDir);

  it('reads every record', () => {
    expect(routing.source).toBe('fedach');
    expect(routing.size).toBe(18_198);
  });

  it('finds a known routing number with the name as the Fed spells it', () => {
    expect(routing.lookup('021000021')).toEqual({ bankName: 'JPMORGAN CHASE', city: 'TAMPA', state: 'FL' });
  });

  it('keeps the new routing number of a record that moved', () => {
    expect(routing.lookup('011001962')).toEqual({
      bankName: 'CATHAY BANK',
      city: 'ROSEMEAD',
      state: 'CA',
      newRoutingNumber: '122203950',
    });
  });

  it('answers undefined for unknown or malformed numbers', () => {
    for (const number of ['123456789', '02100002', '0210000211', 'abcdefghi', '']) {
      expect(routing.lookup(number)).toBeUndefined();
    }
  });
});

describe('parseFedAchDirectory', () => {
  const record = (fields: { routing: string; type: string; newRouting: string; name: string }): string =>
    fields.routing +
    'O' +
    '011000015' +
    fields.type +
    '120418' +
    fields.newRouting +
    fields.name.padEnd(36) +
    '1 MAIN ST'.padEnd(36) +
    'SPRINGFIELD'.padEnd(20) +
    'IL' +
    '627010000' +
    '2175551234' +
    '11' +
    '     ';

  it('parses CRLF records and ignores lines that are not records', () => {
    const text = [
      record({ routing: '111111118', type: '1', newRouting: '000000000', name: 'FIRST BANK' }),
      record({ routing: '222222226', type: '2', newRouting: '111111118', name: 'OLD BANK' }).trimEnd(),
      'not a record',
      '',
    ].join('\r\n');
    const banks = parseFedAchDirectory(text);
    expect(banks.size).toBe(2);
    expect(banks.get('111111118')).toEqual({ bankName: 'FIRST BANK', city: 'SPRINGFIELD', state: 'IL' });
    expect(banks.get('222222226')?.newRoutingNumber).toBe('111111118');
  });
});

describe('loadRoutingDirectory without the file', () => {
  it.each([undefined, '/nonexistent/reference-data'])('is empty (dir %s)', async (dir) => {
    const routing = await loadRoutingDirectory(dir);
    expect(routing.source).toBe('none');
    expect(routing.size).toBe(0);
    expect(routing.lookup('021000021')).toBeUndefined();
  });
});
