import * as z from 'zod';
import { SandboxBuyerSchema } from '@funnel/contracts/sandbox-buyers';

const share = z.number().min(0).max(1);
const millis = z.number().int().min(0).max(3_600_000);

/**
 * Every setting that decides how the sandbox answers. Changeable at run time (PUT /_sandbox/config); a change
 * applies to leads posted and requests received after it, never to the outcome already drawn for a lead.
 */
const outcomeFields = {
  /** Seed of every random draw; the same seed and the same requests give the same answers. */
  seed: z.number().int().min(0).max(0xffff_ffff),
  /** Share of leads that end sold; the rest end rejected. */
  soldShare: share,
  /** Share of leads answered pending (status 3) before their final status; the rest are decided at once. */
  pendingShare: share,
  /** A pending lead turns final after a duration drawn uniformly from [pendingMinMs, pendingMaxMs]. */
  pendingMinMs: millis,
  pendingMaxMs: millis,
  /** Each answer is delayed by a duration drawn uniformly from [latencyMinMs, latencyMaxMs]. */
  latencyMinMs: millis,
  latencyMaxMs: millis,
  /** Per request: answer 500, 502 or 503 instead. */
  fault5xxRate: share,
  /** Per request: hold the request `timeoutHoldMs` before answering, past any sane client timeout. */
  faultTimeoutRate: share,
  /** Per request: reset the TCP connection instead of answering. */
  faultResetRate: share,
  /** Per request: answer 200 with a body that is not JSON (the real answer cut in half). */
  faultMalformedRate: share,
  timeoutHoldMs: millis,
  /**
   * Per request: answer 200 with a JSON body of `oversizedBytes` bytes, streamed (chunked, no Content-Length)
   * at the pace the client reads it: an answer no client should buffer whole (issue 28).
   */
  faultOversizedRate: share,
  /** Size of an oversized answer, bytes (default 50 MB). */
  oversizedBytes: z.number().int().min(1).max(1_000_000_000),
  /** Pause between the 64 KiB chunks of an oversized answer (0: as fast as the client reads). */
  oversizedChunkIntervalMs: z.number().int().min(0).max(10_000),
  /**
   * Sold answers carry `redirect_url` (the sandbox's own offer page). Off, a sale comes without an address, as a
   * network may answer when the lender contacts the borrower itself (docs/product-rules.md §lender-network-answers: the sold screen says so).
   */
  soldRedirect: z.boolean(),
  /** Rejected answers carry `rejectUrl` (the sandbox's own declined page). */
  rejectRedirect: z.boolean(),
  /** `testMode` leads stay pending this long before their `testSold` outcome (0: decided at once). */
  testPendingMs: millis,
  /** `testMode` leads answer pending to this many pings; the next ping gets the `testSold` outcome. */
  testPendingPings: z.number().int().min(0).max(10_000),
  /** How long the litigator list (routes/litigator-list.ts) takes to answer each lookup. */
  litigatorDelayMs: millis,
};

const FAULT_RATE_KEYS = [
  'fault5xxRate',
  'faultTimeoutRate',
  'faultResetRate',
  'faultMalformedRate',
  'faultOversizedRate',
] as const;

/** The whole outcome configuration, with the checks that span fields. */
export const OutcomeConfigSchema = z
  .object(outcomeFields)
  .strict()
  .superRefine((config, ctx) => {
    if (config.pendingMinMs > config.pendingMaxMs) {
      ctx.addIssue({ code: 'custom', path: ['pendingMinMs'], message: 'Must not exceed pendingMaxMs' });
    }
    if (config.latencyMinMs > config.latencyMaxMs) {
      ctx.addIssue({ code: 'custom', path: ['latencyMinMs'], message: 'Must not exceed latencyMaxMs' });
    }
    // One draw picks at most one fault per request, so the rates share the unit interval.
    const faultRates = FAULT_RATE_KEYS.reduce((sum, key) => sum + config[key], 0);
    if (faultRates > 1 + 1e-9) {
      ctx.addIssue({
        code: 'custom',
        path: ['fault5xxRate'],
        message: 'The five fault rates must add up to at most 1',
      });
    }
  });
export type OutcomeConfig = z.infer<typeof OutcomeConfigSchema>;

/** Body of PUT /_sandbox/config: any subset of the settings; the rest keep their value. */
export const OutcomeConfigPatchSchema = z.object(outcomeFields).partial().strict();
export type OutcomeConfigPatch = z.infer<typeof OutcomeConfigPatchSchema>;

/** A believable network for local runs: most leads sold, half of them after a short wait, no faults. */
export const DEFAULT_OUTCOME_CONFIG: OutcomeConfig = {
  seed: 1,
  soldShare: 0.7,
  pendingShare: 0.5,
  pendingMinMs: 2_000,
  pendingMaxMs: 10_000,
  latencyMinMs: 20,
  latencyMaxMs: 200,
  fault5xxRate: 0,
  faultTimeoutRate: 0,
  faultResetRate: 0,
  faultMalformedRate: 0,
  timeoutHoldMs: 60_000,
  faultOversizedRate: 0,
  oversizedBytes: 50_000_000,
  oversizedChunkIntervalMs: 0,
  soldRedirect: true,
  rejectRedirect: true,
  testPendingMs: 0,
  testPendingPings: 0,
  litigatorDelayMs: 10,
};

/** The configuration of one sandbox instance: where it is reachable, how much it keeps, how it answers. */
export const SandboxConfigSchema = z.object({
  /** Base of the redirect and reject addresses the sandbox hands out (its own pages). */
  publicUrl: z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ''))
    .default('http://127.0.0.1:4010'),
  /**
   * The product's base URL, whose buyer API the simulated buyers with `returns` call (ADR 0020); unset, no buyer
   * returns anything.
   */
  returnsUrl: z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** The key the litigator list accepts (routes/litigator-list.ts). */
  litigatorApiKey: z.string().min(1).default('sandbox-litigator-key'),
  /** Leads kept in memory; the oldest are forgotten beyond this. */
  maxLeads: z.number().int().positive().default(100_000),
  outcome: z
    .object(outcomeFields)
    .partial()
    .strict()
    .default({})
    .transform((patch) => ({ ...DEFAULT_OUTCOME_CONFIG, ...patch }))
    .pipe(OutcomeConfigSchema),
  /** Simulated buyers served under /buyers/{id} besides the network at the root (issue 13). */
  buyers: z
    .array(SandboxBuyerSchema)
    .default([])
    .refine((buyers) => new Set(buyers.map((b) => b.id)).size === buyers.length, 'Buyer ids must differ'),
});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
export type SandboxConfigInput = z.input<typeof SandboxConfigSchema>;

/** Applies a PUT /_sandbox/config body to the current configuration; fails when the result is inconsistent. */
export function applyConfigPatch(current: OutcomeConfig, patch: OutcomeConfigPatch) {
  return OutcomeConfigSchema.safeParse({ ...current, ...patch });
}
