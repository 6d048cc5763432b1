/**
 * The cross-sell questions shown while the borrower waits for a lender (spec §2 "Matching", §3 "Cross-sell
 * record", §4 "Cross-sell"): what the browser posts (POST /api/v1/lead/cross-sell), what the lead stores and what
 * the worker forwards to the cross-sell partner.
 */
import * as z from 'zod';
import { CLIENT_TO_SERVER as server } from './fields.js';
import { LoanReasonSchema } from './options.js';

/**
 * The four questions, in the order shown (spec §2): Q1 card offers (yes opens the offer's link), Q2 credit card
 * debt over $15k, Q3 auto insurance, Q4 credit score. Q5 is a thank-you card and asks nothing.
 */
export const CROSS_SELL_QUESTIONS = [
  'card-offers',
  'credit-card-debt',
  'auto-insurance',
  'credit-score',
] as const;
export const CrossSellQuestionSchema = z.enum(CROSS_SELL_QUESTIONS);
export type CrossSellQuestion = z.infer<typeof CrossSellQuestionSchema>;

export const CrossSellAnswerValueSchema = z.enum(['yes', 'no']);
export type CrossSellAnswerValue = z.infer<typeof CrossSellAnswerValueSchema>;

/** One answered question. */
export const CrossSellAnswerSchema = z.object({
  question: CrossSellQuestionSchema,
  answer: CrossSellAnswerValueSchema,
});
export type CrossSellAnswer = z.infer<typeof CrossSellAnswerSchema>;

/**
 * The answer markers (spec §4): yes on Q2 adds 14, yes on Q3 adds 13, yes on the other Q1-style card (Q4,
 * credit score) adds 12. Yes on Q1 itself opens the card offer and adds no marker.
 */
export const CROSS_SELL_MARKERS = {
  'credit-card-debt': 14,
  'auto-insurance': 13,
  'credit-score': 12,
} as const satisfies Partial<Record<CrossSellQuestion, number>>;
export const CrossSellMarkerSchema = z.union([z.literal(14), z.literal(13), z.literal(12)]);
export type CrossSellMarker = z.infer<typeof CrossSellMarkerSchema>;

/**
 * POST /api/v1/lead/cross-sell: one or more answers (the browser may send each answer as it is given, or all
 * so far). A later answer to the same question replaces the earlier one.
 */
export const CrossSellRequestSchema = z.object({
  answers: z
    .array(CrossSellAnswerSchema)
    .min(1)
    .max(CROSS_SELL_QUESTIONS.length)
    .refine((answers) => new Set(answers.map((a) => a.question)).size === answers.length, {
      error: 'Each question may be answered once per request.',
    }),
});
export type CrossSellRequest = z.infer<typeof CrossSellRequestSchema>;

/** What the lead stores (`_cross_sell`) and the endpoint answers: every answer so far and its markers. */
export const CrossSellRecordSchema = z.object({
  answers: z.array(CrossSellAnswerSchema),
  markers: z.array(CrossSellMarkerSchema),
  updatedAt: z.string(),
});
export type CrossSellRecord = z.infer<typeof CrossSellRecordSchema>;

/**
 * What the worker posts to the cross-sell partner (`CROSS_SELL_FORWARD_URL`): spec §3's record — email, first
 * and last name, answers (the markers, as the observed system sent them) and loan reason — plus the answers by
 * question, which the markers alone cannot tell apart from a no.
 */
export const CrossSellForwardPayloadSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  loanReason: LoanReasonSchema,
  answers: z.array(CrossSellMarkerSchema),
  responses: z.array(CrossSellAnswerSchema),
});
export type CrossSellForwardPayload = z.infer<typeof CrossSellForwardPayloadSchema>;

/** Every answer so far: `incoming` replaces earlier answers to the same questions; question order is kept. */
export function mergeCrossSellAnswers(
  current: readonly CrossSellAnswer[],
  incoming: readonly CrossSellAnswer[],
): CrossSellAnswer[] {
  const byQuestion = new Map<CrossSellQuestion, CrossSellAnswer>();
  for (const answer of [...current, ...incoming]) byQuestion.set(answer.question, answer);
  return CROSS_SELL_QUESTIONS.flatMap((question) => {
    const answer = byQuestion.get(question);
    return answer ? [answer] : [];
  });
}

/** The markers of a set of answers, in question order (14, 13, 12). */
export function crossSellMarkers(answers: readonly CrossSellAnswer[]): CrossSellMarker[] {
  const markers: CrossSellMarker[] = [];
  for (const { question, answer } of answers) {
    if (answer !== 'yes' || !(question in CROSS_SELL_MARKERS)) continue;
    markers.push(CROSS_SELL_MARKERS[question as keyof typeof CROSS_SELL_MARKERS]);
  }
  return markers;
}

/** Spec §4: yes on any question but Q2 sends a record (Q2's marker travels with the next one sent). */
export function sendsCrossSellRecord(answer: CrossSellAnswer): boolean {
  return answer.answer === 'yes' && answer.question !== 'credit-card-debt';
}

/**
 * The record forwarded for a stored lead (server field names) and its cross-sell answers, or undefined when the
 * lead lacks a field the partner needs.
 */
export function crossSellForwardPayload(
  fields: Readonly<Record<string, unknown>>,
  record: CrossSellRecord,
): CrossSellForwardPayload | undefined {
  const parsed = CrossSellForwardPayloadSchema.safeParse({
    email: fields[server.email],
    firstName: fields[server.firstName],
    lastName: fields[server.lastName],
    loanReason: fields[server.loanReason],
    answers: crossSellMarkers(record.answers),
    responses: record.answers,
  });
  return parsed.success ? parsed.data : undefined;
}
