import { readFileSync } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import {
  BuyerChangeSchema,
  BuyerConfigVersionListSchema,
  BuyerHealthListSchema,
  BuyersConfigViewSchema,
  splitCredentials,
  type BuyerHealth,
} from '@funnel/contracts/buyer-admin';
import { BuyersFileSchema } from '@funnel/contracts/buyers';
import { listBuyerVersions } from '@funnel/db/buyer-config';
import { buyerAttemptHealth } from '@funnel/db/buyer-health';
import type { Database } from '@funnel/db/database';
import { readBuyerBreakers } from '@funnel/server-runtime/buyer-breaker';
import { buyerWorkers } from '@funnel/server-runtime/buyer-config-signal';
import { buyerCapKeys, dayIn } from '@funnel/server-runtime/buyer-caps';
import { BUYER_ERRORS, buyersDatabase, changerOf, configView } from '../buyer-config/buyer-admin-http.js';
import type { LiveBuyers } from '../buyer-config/live-buyers.js';
import { HttpError } from '../http-error.js';
import { operatorRoute } from '../admin/operator-route.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

export interface BuyerConfigAdminRoutesOptions {
  db: Kysely<Database> | undefined;
  /** BUYERS_FILE's path: an import without a body reads it again. */
  filePath: string | undefined;
  live: LiveBuyers;
  keyPrefix: string;
  now: () => Date;
}

const HEALTH_WINDOW_MINUTES = 15;

/** The JSON of the file BUYERS_FILE names, read now (an operator edited it); validated by the import like a body. */
function readBuyersFileAgain(filePath: string | undefined): Record<string, unknown> {
  if (!filePath) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'Send a buyers file: BUYERS_FILE is not set.');
  }
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch {
    throw new HttpError(400, 'VALIDATION_FAILED', 'BUYERS_FILE cannot be read.');
  }
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && !Array.isArray(json))
      return json as Record<string, unknown>;
  } catch {
    // Answered below, like any other JSON that is not a buyers file.
  }
  throw new HttpError(400, 'VALIDATION_FAILED', 'BUYERS_FILE is not a JSON object.');
}

/**
 * The buyers document as a whole (ADR 0022): its versions, its import and export in the buyers file's format,
 * and each buyer's health over the last 15 minutes. Manager and admin.
 */
const buyerConfigAdminRoutes: FastifyPluginAsyncZod<BuyerConfigAdminRoutesOptions> = async (app, options) => {
  const database = () => buyersDatabase(options.db);

  app.get(
    '/admin/buyers/versions',
    operatorRoute('manager', 'buyers.versions', {
      summary: 'Every version of the buyers document: who changed what, and when',
      description: 'Newest first, at most 100.',
      response: { 200: BuyerConfigVersionListSchema, ...BUYER_ERRORS },
    }),
    async (request) => ({
      versions: await readSystemOfRecord(options.db, 'The buyers', request.log, (db) =>
        listBuyerVersions(db),
      ),
    }),
  );

  app.get(
    '/admin/buyers/export',
    operatorRoute('manager', 'buyers.export', {
      summary: 'The buyers document in the buyers file’s format',
      description:
        'What BUYERS_FILE holds, with every default filled in. Credentials are left out (`apiKey` is ' +
        'write-only): an import of this file keeps the credentials the buyers have.',
      response: { 200: BuyersFileSchema, ...BUYER_ERRORS },
    }),
    async () => splitCredentials((await options.live.current(database())).file).document,
  );

  app.post(
    '/admin/buyers/import',
    operatorRoute('manager', 'buyers.import', {
      summary: 'Replace the buyers document with a buyers file',
      description:
        'The body is a buyers file (BUYERS_FILE’s format); without a body, the file BUYERS_FILE names is read ' +
        'again from the BFF’s disk. A buyer without `apiKey` keeps the credential it has while its `baseUrl` ' +
        'stays on the same origin (moved, it needs its key); paused buyers still listed stay paused. A manager ' +
        'may not add a buyer or change an address or a credential (403). 400 with field messages ' +
        '(`buyers.0.baseUrl`) when it does not validate, or names a loopback, link-local or private address ' +
        'outside BUYER_PRIVATE_RANGES: nothing changes.',
      body: BuyerChangeSchema.nullish(),
      response: { 200: BuyersConfigViewSchema, ...BUYER_ERRORS },
    }),
    async (request) => {
      const db = database();
      const fromDisk = !request.body || Object.keys(request.body).length === 0;
      const body = fromDisk ? readBuyersFileAgain(options.filePath) : request.body!;
      const saved = await options.live.change(db, changerOf(request), (current) => {
        const count = Array.isArray(body.buyers) ? body.buyers.length : 0;
        return {
          document: body,
          paused: current?.paused ?? [],
          action: 'import',
          summary: `imported ${count} buyers${fromDisk ? ' from BUYERS_FILE' : ''}`,
        };
      });
      return configView(saved);
    },
  );

  app.get(
    '/admin/buyers/health',
    operatorRoute('manager', 'buyers.health', {
      summary: 'Each buyer’s health over the last 15 minutes',
      description:
        'Attempts that reached the buyer, accept rate, p95 latency, timeouts and errors (the system of record), ' +
        'cap use in the current hour and day (the workers’ counters), the circuit breaker the workers share, ' +
        'and the version each worker runs with its last heartbeat; a worker that missed 5 checks of the ' +
        'buyers document is `gone` (listed for a day).',
      response: { 200: BuyerHealthListSchema, ...BUYER_ERRORS },
    }),
    async (request) => {
      const db = database();
      const config = await options.live.current(db);
      const now = options.now().getTime();
      const attempts = await readSystemOfRecord(db, 'The buyers’ health', request.log, (d) =>
        buyerAttemptHealth(d, new Date(now - HEALTH_WINDOW_MINUTES * 60_000)),
      );
      const day = dayIn(config.file.timeZone, now);
      const breakers = await readBuyerBreakers(
        app.redis,
        options.keyPrefix,
        config.file.buyers.map((buyer) => buyer.id),
      );
      const buyers: BuyerHealth[] = await Promise.all(
        config.file.buyers.map(async (buyer) => {
          const { hourKey, dayKey } = buyerCapKeys(options.keyPrefix, buyer.id, now, day);
          const [hour, dayUse] = await app.redis.mget(hourKey, dayKey);
          const seen = attempts.get(buyer.id);
          const breaker = breakers.get(buyer.id);
          return {
            buyer: buyer.id,
            paused: config.paused.includes(buyer.id),
            needsKey: config.keysNeeded.includes(buyer.id),
            attempts: seen?.attempts ?? 0,
            sold: seen?.sold ?? 0,
            acceptRate: seen && seen.attempts > 0 ? seen.sold / seen.attempts : null,
            p95LatencyMs: seen?.p95LatencyMs ?? null,
            timeouts: seen?.timeouts ?? 0,
            errors: seen?.errors ?? 0,
            breaker: {
              state: breaker?.state ?? 'closed',
              openUntil: breaker?.state === 'open' ? new Date(breaker.openUntil).toISOString() : null,
              failures: breaker?.failures ?? 0,
              skips: breaker?.skips ?? 0,
            },
            capUse: {
              hour: Number(hour ?? 0),
              perHour: buyer.caps.perHour ?? null,
              day: Number(dayUse ?? 0),
              perDay: buyer.caps.perDay ?? null,
            },
          };
        }),
      );
      const workers = (await buyerWorkers(app.redis, options.keyPrefix, now)).map((w) => ({
        worker: w.worker,
        version: w.version,
        at: new Date(w.appliedAt).toISOString(),
        lastSeenAt: new Date(w.seenAt).toISOString(),
        gone: w.gone,
      }));
      return { windowMinutes: HEALTH_WINDOW_MINUTES, version: config.version, workers, buyers };
    },
  );
};

export default buyerConfigAdminRoutes;
