import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber } from './aba.js';

describe('isValidRoutingNumber', () => {
  it.each([
    ['021000021', 'JPMorgan Chase, New York'],
    ['011000015', 'Federal Reserve Bank of Boston'],
    ['121000358', 'Bank of America, California'],
    ['026009593', 'Bank of America, New York'],
    ['322271627', 'Chase, California (thrift range)'],
    ['211274450', 'TD Bank (thrift range)'],
  ])('accepts %s (%s)', (routing) => {
    expect(isValidRoutingNumber(routing)).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidRoutingNumber('021000022')).toBe(false);
    expect(isValidRoutingNumber('011000016')).toBe(false);
  });

  it('rejects transposed digits', () => {
    expect(isValidRoutingNumber('012000021')).toBe(false);
  });

  it.each(['02100002', '0210000210', '', '02100002a', '021-000-021', ' 021000021'])(
    'rejects %j: not exactly nine digits',
    (value) => {
      expect(isValidRoutingNumber(value)).toBe(false);
    },
  );

  it.each(['000000000', '130000006', '500000005', '990000000'])(
    'rejects %s: check digit fits but no bank has that prefix',
    (value) => {
      expect(isValidRoutingNumber(value)).toBe(false);
    },
  );
});
