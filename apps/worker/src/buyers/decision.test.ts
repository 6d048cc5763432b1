import { describe, expect, it } from 'vitest';
import { decide } from './decision.js';

const policy = { partnerOfferHosts: ['offers.partner.example'] };

describe('decide', () => {
  it('keeps waiting on status 3', () => {
    expect(decide({ status: 3 }, policy)).toBeUndefined();
  });

  it('sells on status 1 with the redirect address', () => {
    expect(decide({ status: 1, redirect_url: 'https://lender.example/offer/9' }, policy)).toEqual({
      outcome: 'sold',
      redirectUrl: 'https://lender.example/offer/9',
    });
  });

  it('marks a sale to a partner offer host (or a subdomain of one)', () => {
    expect(decide({ status: 1, redirect_url: 'https://go.offers.partner.example/x' }, policy)).toMatchObject({
      outcome: 'sold',
      partnerOffer: true,
    });
  });

  it('rejects on status 2, keeping the reject address when given', () => {
    expect(decide({ status: 2, rejectUrl: 'https://lender.example/no' }, policy)).toEqual({
      outcome: 'rejected',
      reason: 'upstream_rejected',
      redirectUrl: 'https://lender.example/no',
    });
    expect(decide({ status: 2 }, policy)).toEqual({ outcome: 'rejected', reason: 'upstream_rejected' });
  });

  it('follows a returned address on any other status, else rejects', () => {
    expect(decide({ status: 7, redirect_url: 'https://lender.example/r' }, policy)).toMatchObject({
      outcome: 'sold',
    });
    expect(decide({ status: 7, rejectUrl: 'https://lender.example/n' }, policy)).toMatchObject({
      outcome: 'rejected',
      redirectUrl: 'https://lender.example/n',
    });
    expect(decide({ status: 0 }, policy)).toEqual({ outcome: 'rejected', reason: 'upstream_status_0' });
  });

  it('counts a sale without an address as a sale (the sold screen says the lender will contact them)', () => {
    expect(decide({ status: 1 }, policy)).toEqual({ outcome: 'sold' });
  });
});
