import * as z from 'zod';
import { FAULT_KINDS } from './fault-injector.js';

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
  payload: z.unknown(),
});
export type SandboxLead = z.infer<typeof SandboxLeadSchema>;
