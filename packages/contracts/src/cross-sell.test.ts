import { describe, expect, it } from 'vitest';
import {
  CrossSellRequestSchema,
  crossSellForwardPayload,
  crossSellMarkers,
  mergeCrossSellAnswers,
  sendsCrossSellRecord,
  type CrossSellAnswer,
} from './cross-sell.js';

describe('cross-sell answers', () => {
  it.each([
    ['card-offers', 'yes', [], true],
    ['card-offers', 'no', [], false],
    ['credit-card-debt', 'yes', [14], false],
    ['credit-card-debt', 'no', [], false],
    ['auto-insurance', 'yes', [13], true],
    ['auto-insurance', 'no', [], false],
    ['credit-score', 'yes', [12], true],
    ['credit-score', 'no', [], false],
  ] as const)('%s %s → markers %j, record sent: %s', (question, answer, markers, sends) => {
    const given: CrossSellAnswer = { question, answer };
    expect(crossSellMarkers([given])).toEqual(markers);
    expect(sendsCrossSellRecord(given)).toBe(sends);
  });

  it('lists the markers of every yes in question order', () => {
    expect(
      crossSellMarkers([
        { question: 'credit-score', answer: 'yes' },
        { question: 'credit-card-debt', answer: 'yes' },
        { question: 'auto-insurance', answer: 'yes' },
      ]),
    ).toEqual([12, 14, 13]);
    const merged = mergeCrossSellAnswers(
      [
        { question: 'credit-score', answer: 'yes' },
        { question: 'credit-card-debt', answer: 'yes' },
      ],
      [{ question: 'auto-insurance', answer: 'yes' }],
    );
    expect(crossSellMarkers(merged)).toEqual([14, 13, 12]);
  });

  it('lets a later answer replace an earlier one', () => {
    expect(
      mergeCrossSellAnswers(
        [{ question: 'auto-insurance', answer: 'yes' }],
        [{ question: 'auto-insurance', answer: 'no' }],
      ),
    ).toEqual([{ question: 'auto-insurance', answer: 'no' }]);
  });

  it('refuses an empty request, an unknown question and a question answered twice', () => {
    expect(CrossSellRequestSchema.safeParse({ answers: [] }).success).toBe(false);
    expect(CrossSellRequestSchema.safeParse({ answers: [{ question: 'q9', answer: 'yes' }] }).success).toBe(
      false,
    );
    expect(
      CrossSellRequestSchema.safeParse({
        answers: [
          { question: 'credit-score', answer: 'yes' },
          { question: 'credit-score', answer: 'no' },
        ],
      }).success,
    ).toBe(false);
  });
});

describe('crossSellForwardPayload', () => {
  const record = {
    answers: [
      { question: 'credit-card-debt' as const, answer: 'yes' as const },
      { question: 'auto-insurance' as const, answer: 'yes' as const },
    ],
    markers: [14 as const, 13 as const],
    updatedAt: '2026-11-21T10:00:00.000Z',
  };

  it('sends spec §3 record: email, names, loan reason and the markers as answers', () => {
    expect(
      crossSellForwardPayload(
        {
          email: 'ann@example.com',
          first_name: 'Ann',
          last_name: 'Lee',
          loan_reason: 'AUTO_REPAIR',
          ssn: '123456789',
        },
        record,
      ),
    ).toEqual({
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      loanReason: 'AUTO_REPAIR',
      answers: [14, 13],
      responses: record.answers,
    });
  });

  it('is undefined for a lead that lacks a field the partner needs', () => {
    expect(crossSellForwardPayload({ email: 'ann@example.com' }, record)).toBeUndefined();
  });
});
