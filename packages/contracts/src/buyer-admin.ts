/**
 * Buyers managed live (issue 33, ADR 0022): the console's and the admin API's view of the buyers document kept in
 * the system of record. A buyer's credential is write-only: a view says whether one is set, never what it is.
 */
import * as z from 'zod';
import {
  AuctionSettingsSchema,
  BuyerSchema,
  BuyersFileSchema,
  type Buyer,
  type BuyersFile,
} from './buyers.js';

// The buyer's fields but its credential (the schema's cross-field rules are checked on writes, not on views).
const { apiKey: _credential, ...viewShape } = BuyerSchema.shape;

/**
 * A buyer as the console reads it: its settings less `apiKey`, whether one is set, whether it is paused, and
 * whether it needs its key (ADR 0024: its credential was dropped when its address moved to another origin; the
 * workers hold it like a paused buyer until an admin enters one).
 */
export const BuyerViewSchema = z
  .object({
    ...viewShape,
    hasApiKey: z.boolean(),
    paused: z.boolean(),
    needsKey: z.boolean(),
  })
  .meta({ id: 'BuyerView' });
export type BuyerView = z.infer<typeof BuyerViewSchema>;

/** The current version of the buyers document, without credentials. */
export const BuyersConfigViewSchema = z
  .object({
    version: z.number().int(),
    at: z.string(),
    actor: z.string(),
    timeZone: z.string(),
    mode: z.enum(['waterfall', 'auction']),
    auction: AuctionSettingsSchema,
    buyers: z.array(BuyerViewSchema),
  })
  .meta({ id: 'BuyersConfigView' });
export type BuyersConfigView = z.infer<typeof BuyersConfigViewSchema>;

export const BUYER_CONFIG_ACTIONS = ['import', 'create', 'update', 'pause', 'resume'] as const;

/** One version of the buyers document: who made it, when, and what changed. */
export const BuyerConfigVersionSchema = z
  .object({
    version: z.number().int(),
    at: z.string(),
    actor: z.string(),
    action: z.enum(BUYER_CONFIG_ACTIONS),
    summary: z.string(),
  })
  .meta({ id: 'BuyerConfigVersion' });
export type BuyerConfigVersion = z.infer<typeof BuyerConfigVersionSchema>;

export const BuyerConfigVersionListSchema = z.object({ versions: z.array(BuyerConfigVersionSchema) });

/**
 * A buyer as a manager sends it, checked against the buyers file's own schema once merged into the document. An
 * update without `apiKey` keeps the credential the buyer has.
 */
export const BuyerChangeSchema = z.record(z.string(), z.unknown()).meta({
  id: 'BuyerChange',
  description: 'A buyer of the buyers file (BuyerSchema); `apiKey` is write-only and kept when left out.',
});

/** A buyer's health over the last 15 minutes, from the system of record and the cap counters. */
export const BuyerHealthSchema = z
  .object({
    buyer: z.string(),
    paused: z.boolean(),
    /** Held until an admin enters its credential (ADR 0024). */
    needsKey: z.boolean(),
    attempts: z.number().int(),
    sold: z.number().int(),
    /** sold / attempts that reached the buyer (capped ones excluded); null without any. */
    acceptRate: z.number().nullable(),
    p95LatencyMs: z.number().nullable(),
    timeouts: z.number().int(),
    errors: z.number().int(),
    /**
     * The circuit breaker the workers share (ADR 0022): `closed`, `open` until `openUntil` (then one trial), or
     * `half-open` (the trial is running); `skips`: leads that passed the buyer over since it last opened.
     */
    breaker: z.object({
      state: z.enum(['closed', 'open', 'half-open']),
      openUntil: z.iso.datetime().nullable(),
      failures: z.number().int(),
      skips: z.number().int(),
    }),
    /** Places taken in the current hour and day cap windows, and the caps (null: none). */
    capUse: z.object({
      hour: z.number().int(),
      perHour: z.number().int().nullable(),
      day: z.number().int(),
      perDay: z.number().int().nullable(),
    }),
  })
  .meta({ id: 'BuyerHealth' });
export type BuyerHealth = z.infer<typeof BuyerHealthSchema>;

export const BuyerHealthListSchema = z.object({
  windowMinutes: z.number().int(),
  /**
   * The newest version, and the version each worker runs and since when (`at`), with its last heartbeat
   * (`lastSeenAt`, one per check of the document). A worker that missed several checks is `gone`: it stopped or lost
   * Redis, and its version is what it ran when last seen (listed for a day, then dropped).
   */
  version: z.number().int(),
  workers: z.array(
    z.object({
      worker: z.string(),
      version: z.number().int(),
      at: z.string(),
      lastSeenAt: z.string(),
      gone: z.boolean(),
    }),
  ),
  buyers: z.array(BuyerHealthSchema),
});
export type BuyerHealthList = z.infer<typeof BuyerHealthListSchema>;

/** The sample lead's answer from one buyer, through the same adapter a lead goes through. */
export const BuyerTestResultSchema = z
  .object({
    buyer: z.string(),
    /** sold | rejected | invalid | pending | error */
    outcome: z.string(),
    price: z.number().optional(),
    fieldErrors: z.array(z.string()).optional(),
    message: z.string().optional(),
    latencyMs: z.number().int(),
  })
  .meta({ id: 'BuyerTestResult' });
export type BuyerTestResult = z.infer<typeof BuyerTestResultSchema>;

/** A field name (`filters.states`) → message for every issue of `document`'s buyer at `index`, or of the file. */
export function buyerFieldMessages(error: z.ZodError, index?: number): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    const key =
      index !== undefined && path[0] === 'buyers' && path[1] === String(index)
        ? path.slice(2).join('.') || '_'
        : path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The buyers file with every credential left out, and the credentials by buyer id. */
export function splitCredentials(file: BuyersFile): {
  document: BuyersFile;
  credentials: Record<string, string>;
} {
  const credentials: Record<string, string> = {};
  const buyers = file.buyers.map(({ apiKey, ...buyer }): Buyer => {
    if (apiKey !== undefined) credentials[buyer.id] = apiKey;
    return buyer;
  });
  return { document: { ...file, buyers }, credentials };
}

/** The buyers file with its credentials put back, checked against {@link BuyersFileSchema}. */
export function withCredentials(document: unknown, credentials: Record<string, string>): BuyersFile {
  const file = BuyersFileSchema.parse(document);
  return {
    ...file,
    buyers: file.buyers.map((buyer) =>
      credentials[buyer.id] !== undefined ? { ...buyer, apiKey: credentials[buyer.id] } : buyer,
    ),
  };
}

/** The console's view of a document: no credential, each buyer's pause, and whether it needs its key. */
export function buyerViews(
  file: BuyersFile,
  paused: readonly string[],
  keysNeeded: readonly string[] = [],
): BuyerView[] {
  return file.buyers.map(({ apiKey, ...buyer }) => ({
    ...buyer,
    hasApiKey: apiKey !== undefined,
    paused: paused.includes(buyer.id),
    needsKey: keysNeeded.includes(buyer.id),
  }));
}
