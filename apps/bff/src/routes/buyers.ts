import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import {
  BuyerChangeSchema,
  BuyersConfigViewSchema,
  BuyerTestResultSchema,
  BuyerViewSchema,
  buyerViews,
} from '@funnel/contracts/buyer-admin';
import { BuyerIdSchema, BuyerSchema } from '@funnel/contracts/buyers';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import type { BuyerConfig } from '@funnel/db/buyer-config';
import type { Database } from '@funnel/db/database';
import { BUYER_ERRORS, buyersDatabase, changerOf, configView } from '../buyer-config/buyer-admin-http.js';
import type { BuyerTestLeads } from '../buyer-config/buyer-test-leads.js';
import type { LiveBuyers } from '../buyer-config/live-buyers.js';
import { operatorRoute } from '../admin/operator-route.js';
import { HttpError } from '../http-error.js';

export interface BuyerRoutesOptions {
  db: Kysely<Database> | undefined;
  live: LiveBuyers;
  tests: BuyerTestLeads;
}

/** Past the buyer's own attempt time: how much longer a test waits for a worker to take it. */

/**
 * The settings a change gives another value, compared as the schema reads them: the editor sends the whole buyer
 * back, with the defaults filled in, so a key present on one side only is not a change unless its value is.
 */
function changedSettings(old: unknown, edited: unknown): string[] {
  const read = (buyer: unknown) => {
    const parsed = BuyerSchema.safeParse(buyer);
    return (parsed.success ? parsed.data : buyer) as Record<string, unknown>;
  };
  const [before, after] = [read(old), read(edited)];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => key !== 'id' && key !== 'apiKey' && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

const TEST_QUEUE_MS = 5000;

const BuyerParamsSchema = z.object({ buyerId: BuyerIdSchema });
function indexOf(config: BuyerConfig | undefined, buyerId: string): number {
  const index = config?.file.buyers.findIndex((buyer) => buyer.id === buyerId) ?? -1;
  if (index < 0) throw new HttpError(404, 'NOT_FOUND', `No buyer has the id ${buyerId}.`);
  return index;
}

/**
 * Buyers managed live (issue 33, ADR 0022): the buyers document in the system of record, each change a new
 * version checked against the buyers file's schema and run by every worker within seconds. Manager and admin.
 */
const buyerRoutes: FastifyPluginAsyncZod<BuyerRoutesOptions> = async (app, options) => {
  const database = () => buyersDatabase(options.db);

  app.get(
    '/admin/buyers',
    operatorRoute('manager', 'buyers.list', {
      summary: 'The buyers, as the workers run them',
      description: 'The newest version of the buyers document; credentials are never shown (`hasApiKey`).',
      response: { 200: BuyersConfigViewSchema, ...BUYER_ERRORS },
    }),
    async () => configView(await options.live.current(database())),
  );

  app.get(
    '/admin/buyers/:buyerId',
    operatorRoute('manager', 'buyers.read', {
      summary: 'One buyer',
      params: BuyerParamsSchema,
      response: { 200: BuyerViewSchema, ...BUYER_ERRORS },
    }),
    async (request) => {
      const config = await options.live.current(database());
      const views = buyerViews(config.file, config.paused, config.keysNeeded);
      return views[indexOf(config, request.params.buyerId)]!;
    },
  );

  app.post(
    '/admin/buyers',
    operatorRoute('manager', 'buyers.create', {
      summary: 'Add a buyer',
      description:
        'The body is a buyer of the buyers file (its schema, with its defaults). Admin only (403 for a manager): ' +
        'a buyer’s address is where leads go. 400 with field messages when the document would not validate (a ' +
        'duplicate id among them) or `baseUrl` is a loopback, link-local or private address outside ' +
        'BUYER_PRIVATE_RANGES: nothing changes.',
      body: BuyerChangeSchema,
      response: { 201: BuyersConfigViewSchema, ...BUYER_ERRORS },
    }),
    async (request, reply) => {
      const db = database();
      await options.live.current(db);
      const saved = await options.live.change(db, changerOf(request), (current) => ({
        document: { ...current!.file, buyers: [...current!.file.buyers, request.body] },
        paused: current!.paused,
        action: 'create',
        summary: `created ${String(request.body.id)}`,
        buyerIndex: current!.file.buyers.length,
      }));
      return reply.code(201).send(configView(saved));
    },
  );

  app.put(
    '/admin/buyers/:buyerId',
    operatorRoute('manager', 'buyers.update', {
      summary: 'Replace a buyer’s settings',
      description:
        'The body is the buyer of the buyers file; its id is the path’s. Without `apiKey`, the buyer keeps the ' +
        'credential it has (write-only) while `baseUrl` stays on the same origin; moved to another origin, the ' +
        'credential is dropped and the buyer is held (`needsKey`) until one is entered. Only an admin changes ' +
        '`baseUrl` or `apiKey` (403 otherwise); a loopback, link-local or private address outside ' +
        'BUYER_PRIVATE_RANGES is refused (400 on `baseUrl`). 400 with field messages when it would not ' +
        'validate: nothing changes.',
      params: BuyerParamsSchema,
      body: BuyerChangeSchema,
      response: { 200: BuyersConfigViewSchema, ...BUYER_ERRORS },
    }),
    async (request) => {
      const db = database();
      await options.live.current(db);
      const { buyerId } = request.params;
      const saved = await options.live.change(db, changerOf(request), (current) => {
        const index = indexOf(current, buyerId);
        const old = current!.file.buyers[index]!;
        const edited = { ...request.body, id: buyerId };
        const changed = changedSettings(old, edited);
        return {
          document: {
            ...current!.file,
            buyers: current!.file.buyers.map((b, i) => (i === index ? edited : b)),
          },
          paused: current!.paused,
          action: 'update',
          summary: `updated ${buyerId}: ${[...changed, ...(request.body.apiKey !== undefined ? ['apiKey'] : [])].join(', ') || 'nothing changed'}`,
          buyerIndex: index,
        };
      });
      return configView(saved);
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.post(
      `/admin/buyers/:buyerId/${action}`,
      operatorRoute('manager', `buyers.${action}`, {
        summary: action === 'pause' ? 'Pause a buyer' : 'Resume a paused buyer',
        description:
          action === 'pause'
            ? 'Every worker stops sending it new pings and posts within seconds; an attempt in flight finishes.'
            : 'Every worker offers it leads again within seconds.',
        params: BuyerParamsSchema,
        response: { 200: BuyersConfigViewSchema, ...BUYER_ERRORS },
      }),
      async (request) => {
        const { buyerId } = request.params;
        const db = database();
        await options.live.current(db);
        const saved = await options.live.change(db, changerOf(request), (current) => {
          indexOf(current, buyerId);
          const others = current!.paused.filter((id) => id !== buyerId);
          return {
            document: current!.file,
            paused: action === 'pause' ? [...others, buyerId] : others,
            action,
            summary: `${action === 'pause' ? 'paused' : 'resumed'} ${buyerId}`,
          };
        });
        return configView(saved);
      },
    );
  }

  app.post(
    '/admin/buyers/:buyerId/test',
    operatorRoute('manager', 'buyers.test', {
      summary: 'Send the sample lead to a buyer, and read its answer',
      description:
        'A worker posts the sample lead (a fictitious person) through the buyer’s adapter, at its first floor and ' +
        'within its attempt time, paused or not; no cap place is taken and nothing is recorded as an attempt. ' +
        '409 while the buyer needs its key (`needsKey`); 504 when no worker took it in time; 502 when a worker took it and failed (the cause is in the BFF log).',
      params: BuyerParamsSchema,
      response: { 200: BuyerTestResultSchema, 502: ApiErrorSchema, 504: ApiErrorSchema, ...BUYER_ERRORS },
    }),
    async (request) => {
      const config = await options.live.current(database());
      const buyer = config.file.buyers[indexOf(config, request.params.buyerId)]!;
      if (config.keysNeeded.includes(buyer.id)) {
        throw new HttpError(
          409,
          'CONFLICT',
          `${buyer.id} needs its key: its address moved to another origin, so an admin enters its credential first.`,
        );
      }
      const result = await options.tests.send(buyer.id, buyer.timeouts.attemptMs + TEST_QUEUE_MS);
      if (!result)
        throw new HttpError(504, 'UNAVAILABLE', 'No worker answered in time: is a worker running?');
      return result;
    },
  );
};

export default buyerRoutes;
