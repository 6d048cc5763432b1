import * as z from 'zod';

/**
 * The lender sandbox's admin API (apps/lender-sandbox), read by tests and benchmarks of other apps. Not part of
 * the real lender network's protocol.
 */

/** The kinds of fault the sandbox injects. */
export const FAULT_KINDS = ['serverError', 'timeout', 'reset', 'malformedJson', 'oversized'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const count = z.number().int().min(0);

/**
 * GET /_sandbox/stats: counters since the last reset, for tests and benchmarks. `posts` counts every submit
 * request (valid or not), `distinctLeads` the upstream leads created; per-lead numbers cover the leads still held.
 */
export const SandboxStatsSchema = z.object({
  posts: count,
  invalidPosts: count,
  distinctLeads: count,
  storedLeads: count,
  postsByPartnerLeadId: z.record(z.string(), count),
  pings: count,
  unknownLeadPings: count,
  invalidPings: count,
  /** Status of the held leads right now. */
  outcomes: z.object({ pending: count, sold: count, rejected: count }),
  /** Faults injected, by kind. */
  faults: z.record(z.enum(FAULT_KINDS), count),
  /** The most oversized answers (`faultOversizedRate`) streaming at the same time. */
  oversizedPeakInFlight: count,
});
export type SandboxStats = z.infer<typeof SandboxStatsSchema>;

/** GET /_sandbox/leads/:partnerLeadId: one lead as the sandbox holds it, `payload` exactly as first posted. */
export const SandboxLeadSchema = z.object({
  partnerLeadId: z.string(),
  networkLeadId: z.string(),
  status: z.number().int(),
  posts: count,
  pings: count,
  receivedAt: z.iso.datetime(),
  /** When the lead's status turned (or turns) final, when that depends on time only (no pending pings). */
  decidedAt: z.iso.datetime().optional(),
  /** The W3C `traceparent` header the first post came with (docs/tracing.md). */
  traceparent: z.string().optional(),
  payload: z.unknown(),
});
export type SandboxLead = z.infer<typeof SandboxLeadSchema>;
