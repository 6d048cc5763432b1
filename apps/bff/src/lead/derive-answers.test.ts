import { describe, expect, it } from 'vitest';
import { UNKNOWN_ZIP, derivedAnswers, placeAnswers } from './derive-answers.js';

// Cases from the spec (§4: "Second pay date from the first: BIWEEKLY or TWICEMONTHLY adds 14 days, MONTHLY adds
// 1 month, WEEKLY adds 7 days. A Saturday or Sunday result moves to the following Monday.") and docs/product-rules.md §pay-dates
// ("The second pay date skips weekends and those holidays": the Federal Reserve's bank holidays; "the bank name
// comes from the BFF").

const NEW_YORK = { city: 'New York', state: 'NY', lat: 40.7484, lon: -73.9967 };

describe('derivedAnswers', () => {
  describe('address: the place from the ZIP code', () => {
    it('fills city, state and coordinates from the place', () => {
      expect(derivedAnswers('address', { zipCode: '10001' }, {}, { place: NEW_YORK })).toEqual({
        city: 'New York',
        state: 'NY',
        latitude: 40.7484,
        longitude: -73.9967,
      });
    });

    it('refuses a ZIP code no directory knows', () => {
      expect(derivedAnswers('address', { zipCode: '00000' }, {}, { place: undefined })).toBe(UNKNOWN_ZIP);
    });

    it('is the same mapping the landing form uses', () => {
      expect(placeAnswers(NEW_YORK)).toEqual(derivedAnswers('address', {}, {}, { place: NEW_YORK }));
    });
  });

  describe('aba: the bank name', () => {
    it("takes the directory's name over the one the browser sent", () => {
      const values = { routingNumber: '011000015', bankName: 'my bank' };
      expect(derivedAnswers('aba', values, {}, { bank: { bankName: 'Federal Reserve Bank' } })).toEqual({
        bankName: 'Federal Reserve Bank',
      });
    });

    it("keeps the visitor's own name for a routing number nobody knows", () => {
      expect(derivedAnswers('aba', { routingNumber: '011000015', bankName: 'my bank' }, {}, {})).toEqual({});
    });
  });

  describe('nextpaydate: the second pay date from the first and the frequency saved before', () => {
    const second = (first: string, frequency?: string) =>
      derivedAnswers(
        'nextpaydate',
        { incomeNextDate1: first },
        frequency ? { incomePaymentFrequency: frequency } : {},
        {},
      );

    it('adds 14 days for BIWEEKLY and TWICEMONTHLY, 7 for WEEKLY', () => {
      expect(second('2026-12-04', 'BIWEEKLY')).toEqual({ incomeNextDate2: '2026-12-18' });
      expect(second('2026-12-04', 'TWICEMONTHLY')).toEqual({ incomeNextDate2: '2026-12-18' });
      expect(second('2026-11-20', 'WEEKLY')).toEqual({ incomeNextDate2: '2026-11-27' });
    });

    it('adds a month for MONTHLY, and a Saturday or Sunday moves to the Monday after', () => {
      expect(second('2026-11-13', 'MONTHLY')).toEqual({ incomeNextDate2: '2026-12-14' }); // Sun 13 Dec
      expect(second('2026-01-30', 'MONTHLY')).toEqual({ incomeNextDate2: '2026-03-02' }); // Sat 28 Feb
    });

    it('skips a federal bank holiday', () => {
      expect(second('2026-11-12', 'BIWEEKLY')).toEqual({ incomeNextDate2: '2026-11-27' }); // Thanksgiving
      expect(second('2026-12-11', 'TWICEMONTHLY')).toEqual({ incomeNextDate2: '2026-12-28' }); // Christmas
    });

    it('counts BIWEEKLY when no frequency was saved yet', () => {
      expect(second('2026-12-04')).toEqual({ incomeNextDate2: '2026-12-18' });
    });
  });

  describe('payfreequency: a changed frequency moves the second pay date', () => {
    it('recomputes it from the first pay date saved before', () => {
      expect(
        derivedAnswers(
          'payfreequency',
          { incomePaymentFrequency: 'WEEKLY' },
          { incomeNextDate1: '2026-11-20', incomeNextDate2: '2026-12-04' },
          {},
        ),
      ).toEqual({ incomeNextDate2: '2026-11-27' });
    });

    it('derives nothing before the first pay date is known', () => {
      expect(derivedAnswers('payfreequency', { incomePaymentFrequency: 'MONTHLY' }, {}, {})).toEqual({});
    });
  });

  it('derives nothing for the other steps', () => {
    expect(derivedAnswers('cellphone', { phone: '2125550142' }, {}, { place: NEW_YORK })).toEqual({});
    expect(derivedAnswers('owncar', { ownCar: 'YES' }, {}, {})).toEqual({});
  });
});
