import { describe, expect, it } from 'vitest';
import type { JourneyEntry } from '@funnel/contracts/lead-journey';
import type { ScreeningCheck, ScreeningReason } from '@funnel/contracts/screening';
import { duplicateOf, journeyLine } from './journey-lines';

const AT = '2026-10-05T16:31:00.000Z';
const base = { eventId: 'lead-1.x', leadId: 'lead-0123456789abcdef', at: AT };

describe("a lead's timeline in an operator's words", () => {
  it('says who bought, who declined, at what price and how fast, with the field errors mapped back', () => {
    const declined: JourneyEntry = {
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'buyer_attempt',
        attemptKey: 'lead-0123456789abcdef-0',
        step: 0,
        buyer: 'prime',
        tier: 1,
        floor: 60,
        result: 'invalid',
        latencyMs: 212,
        fieldErrors: [{ field: 'employerPhone', buyerField: 'WorkPhone', description: 'not a US number' }],
      },
    };
    expect(journeyLine(declined)).toEqual({
      title: 'prime refused fields',
      details: ['Attempt 1, tier 1', 'Floor $60.00', '212 ms', 'employerPhone (WorkPhone): not a US number'],
    });
  });

  it('says why the auction put a buyer where it did: its bid, learned acceptance and returns', () => {
    const line = journeyLine({
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'buyer_attempt',
        attemptKey: 'lead-0123456789abcdef-1',
        step: 1,
        buyer: 'bidder',
        tier: 0,
        result: 'sold',
        price: 80,
        latencyMs: 95,
        fieldErrors: [],
        ranking: {
          rank: 2,
          source: 'bid',
          price: 80,
          pAccepted: 0.75,
          pReturned: 0.2,
          expectedValue: 48,
          posts: 40,
          accepted: 30,
          settledSales: 25,
          returned: 5,
        },
      },
    });
    expect(line.details.at(-1)).toBe(
      'Ranked 2: bid $80.00 × accepted 75 % (30 of 40) × kept 80 % (5 of 25 returned) = $48.00',
    );
  });

  it("says what screening found and what it could not check, in an operator's words", () => {
    const screened = (verdict: 'block' | 'flag', reasons: ScreeningReason[], unchecked: ScreeningCheck[]) =>
      journeyLine({
        kind: 'event',
        at: AT,
        event: { ...base, type: 'screened', verdict, score: 0, reasons, unchecked, ms: 41 },
      });
    expect(screened('block', ['phone_litigator', 'email_disposable'], [])).toEqual({
      title: 'Screening: blocked, not sent to buyers, score 0',
      details: ['Phone on the litigator list', 'Disposable email address', 'Took 41 ms'],
    });
    expect(screened('flag', [], ['litigator']).details).toEqual([
      'Not checked in time: litigator list',
      'Took 41 ms',
    ]);
  });

  it('names the outcome, its reason and where the borrower went', () => {
    const entry: JourneyEntry = {
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'outcome',
        outcome: 'no_lender',
        reason: 'no_buyer_decided',
        secondsToDecision: 310.4,
      },
    };
    expect(journeyLine(entry)).toEqual({
      title: 'Outcome: No lender',
      details: ['No buyer decided in time', 'Decided in 310 s'],
    });
  });

  it('shows a return and a reversed payout with the money involved', () => {
    expect(
      journeyLine({
        kind: 'event',
        at: AT,
        event: {
          ...base,
          type: 'returned',
          returnId: 'ret-1',
          buyer: 'network',
          attemptKey: 'lead-0123456789abcdef-1',
          reason: 'invalid_contact',
          price: 40.5,
          approvedBy: 'rule',
          filedAt: AT,
        },
      }),
    ).toEqual({
      title: 'Returned by network',
      details: [
        'Reason: Phone or email does not reach the borrower',
        'Revenue reversed $40.50',
        "Approved by the buyer's return rule",
      ],
    });
  });

  it('names the operator who approved a return and the manager who reversed one', () => {
    const approved = journeyLine({
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'returned',
        returnId: 'ret-2',
        buyer: 'network',
        attemptKey: 'lead-0123456789abcdef-1',
        reason: 'fraud',
        price: 40.5,
        approvedBy: 'operator',
        operator: 'max@example.com',
        filedAt: AT,
      },
    });
    expect(approved.details).toEqual([
      'Reason: Fraud (identity stolen or made up)',
      'Revenue reversed $40.50',
      'Approved by max@example.com',
    ]);
    const reversed = journeyLine({
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'return_reversed',
        returnId: 'ret-2',
        buyer: 'network',
        attemptKey: 'lead-0123456789abcdef-1',
        from: 'approved',
        to: 'reversed',
        price: 40.5,
        reason: 'Buyer withdrew it (ticket 12)',
        operator: 'max@example.com',
      },
    });
    expect(reversed.details.at(-1)).toBe('By max@example.com');
  });

  it('shows the loan reason and state as the funnel labels them, not their codes', () => {
    const line = journeyLine({
      kind: 'event',
      at: AT,
      event: { ...base, type: 'created', source: 'funnel', amount: 1000, loanReason: 'MEDICAL', state: 'TX' },
    });
    expect(line.details).toEqual(['Amount $1,000.00', 'Reason Medical Expenses', 'State Texas']);
  });

  it("says a duplicate borrower's lead was never sent to buyers, and links the lead they applied with first", () => {
    const outcome: JourneyEntry = {
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'outcome',
        outcome: 'no_lender',
        reason: 'duplicate',
        secondsToDecision: 0,
        duplicateOf: 'lead-original-0123456789',
      },
    };
    const submitted: JourneyEntry = {
      kind: 'event',
      at: AT,
      event: { ...base, type: 'submitted', source: 'funnel' },
    };
    const duplicate = duplicateOf([submitted, outcome]);
    expect(duplicate).toEqual({ original: 'lead-original-0123456789' });
    expect(journeyLine(submitted, duplicate).title).toBe('Submitted: not sent to buyers');
    expect(journeyLine(outcome, duplicate)).toEqual({
      title: 'Outcome: No lender',
      details: ['Duplicate borrower (not sent)', 'Decided in 0 s'],
      link: {
        to: '/operator/leads/lead-original-0123456789',
        text: 'Original lead lead-original-0123456789',
      },
    });
    // Any other lead was sent.
    expect(duplicateOf([submitted])).toBeUndefined();
    expect(journeyLine(submitted).title).toBe('Submitted to buyers');
  });

  it("tells a manager's reversal of a return, with the reason, and the payout restored", () => {
    const reversal = (from: 'approved' | 'rejected'): JourneyEntry => ({
      kind: 'event',
      at: AT,
      event: {
        ...base,
        type: 'return_reversed',
        returnId: 'ret-1',
        buyer: 'network',
        attemptKey: 'lead-0123456789abcdef-1',
        from,
        to: from === 'approved' ? 'reversed' : 'approved',
        price: 40.5,
        reason: 'Buyer withdrew it (ticket 12)',
      },
    });
    expect(journeyLine(reversal('approved'))).toEqual({
      title: 'Return by network reversed: the sale stands',
      details: ['Revenue restored $40.50', 'Why: Buyer withdrew it (ticket 12)'],
    });
    expect(journeyLine(reversal('rejected')).title).toBe('Refused return by network reversed: approved');
    expect(
      journeyLine({
        kind: 'event',
        at: AT,
        event: { ...base, type: 'payout_restored', affiliate: 'aff-acme', amount: 8 },
      }),
    ).toEqual({ title: 'Affiliate payout restored', details: ['aff-acme: $8.00'] });
  });

  it('describes the consent evidence without who gave it', () => {
    const line = journeyLine({
      kind: 'consent',
      at: AT,
      consent: {
        version: '2026-11',
        textSha256: 'a'.repeat(64),
        button: 'REQUEST_FUNDS',
        pageUrl: 'https://apply.example.com/ssn',
        trustedForm: true,
        retainedUntil: '2031-10-05T16:31:00.000Z',
      },
    });
    expect(line.title).toBe('Consent given');
    expect(line.details[0]).toBe('Button “Request Funds”, text version 2026-11');
    expect(line.details).toContain('Evidence kept until 2031-10-05');
    expect(line.details).toContain('TrustedForm certificate kept');
  });

  it('tells each webhook and postback attempt: the host, the answer, when it retries or that it gave up', () => {
    const attempt = (overrides: Record<string, unknown>): JourneyEntry =>
      ({
        kind: 'event',
        at: AT,
        event: {
          ...base,
          type: 'delivery_attempt',
          channel: 'partner_webhook',
          target: 'acme',
          host: 'hooks.acme.example',
          event: 'sold',
          attempt: 1,
          maxAttempts: 8,
          result: 'failed',
          status: 500,
          latencyMs: 41,
          nextAttemptAt: '2026-10-05T16:31:10.041Z',
          gaveUp: false,
          ...overrides,
        },
      }) as JourneyEntry;
    expect(journeyLine(attempt({}))).toEqual({
      title: 'Webhook to partner acme: failed',
      details: [
        'Attempt 1 of 8, told sold',
        'To hooks.acme.example',
        'HTTP 500',
        '41 ms',
        'Next attempt about 2026-10-05 16:31:10 UTC',
      ],
    });
    const last = journeyLine(
      attempt({
        channel: 'affiliate_postback',
        target: 'aff-7',
        attempt: 8,
        status: undefined,
        errorKind: 'connection_refused',
        nextAttemptAt: undefined,
        gaveUp: true,
      }),
    );
    expect(last.title).toBe('Postback to affiliate aff-7: failed');
    expect(last.details).toContain('Error: connection refused');
    expect(last.details).toContain('Gave up: no more attempts');
    // A buyer with no address for opt-outs: nobody retries, and the operator reads that it must be told otherwise.
    const untold = journeyLine(
      attempt({
        channel: 'buyer_opt_out',
        target: 'prime',
        host: undefined,
        event: 'do_not_sell',
        result: 'refused',
        status: undefined,
        errorKind: 'no_opt_out_url',
        nextAttemptAt: undefined,
        gaveUp: true,
      }),
    );
    expect(untold).toMatchObject({ title: 'Opt-out to buyer prime: not sent' });
    expect(untold.details).toEqual(
      expect.arrayContaining(['Attempt 1 of 8, told do not sell', 'Error: no opt out url']),
    );
  });
});
