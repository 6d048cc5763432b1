import type { Job } from 'bullmq';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerInput } from '@funnel/contracts/buyers';
import {
  currentBuyerConfig,
  currentBuyerVersion,
  importBuyersIfEmpty,
  saveBuyerConfig,
} from '@funnel/db/buyer-config';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { buyerConfigChannel, publishBuyerConfigChange } from '@funnel/server-runtime/buyer-config-signal';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { AddressAllowList } from '@funnel/server-runtime/network-address';
import { BuyerConfigWatcher } from '../src/buyers/buyer-config-watcher.js';
import { RetryableLenderError } from '../src/buyers/lender-errors.js';
import { sampleLeadRecord } from '../src/buyers/sample-lead-record.js';
import { createBuyerTestProcessor } from '../src/buyers/buyer-test-lead.js';
import { BuyerRegistry } from '../src/buyers/buyer-registry.js';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { Pipeline } from './pipeline-fixture.js';
import { buyersFile, startBuyersSandbox, startWaterfallWorker } from './waterfall-fixture.js';

const fast = { latencyMinMs: 0, latencyMaxMs: 0 };
const who = { accountId: null, actor: 'test@example.com' };

describe('buyers managed live: a worker runs the newest version of the document', () => {
  const schema = testSchema('buyerslive');
  let db: Kysely<Database>;
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema, max: 4 });
    await migrate(db, schema);
    sandbox = await startBuyersSandbox([
      { id: 'first', protocol: 'sync-post', seed: 1, interestShare: 1, maxValue: 1000, ...fast },
      { id: 'second', protocol: 'sync-post', seed: 2, interestShare: 1, maxValue: 1000, ...fast },
    ]);
  });
  afterAll(async () => {
    await sandbox.process.stop();
    await db.destroy();
    await dropSchema(schema);
  });
  /** A sandbox buyer that takes every lead at any price. */
  const buyer = (id: string, tier: number): BuyerInput => ({
    id,
    tier,
    protocol: 'sync-post',
    baseUrl: sandbox.buyerUrl(id),
    priceLadder: [0],
  });

  it('stops offering a paused buyer leads at once, and offers them again once it is resumed', async () => {
    const file = buyersFile([buyer('first', 1), buyer('second', 2)]);
    const pipeline = new Pipeline();
    const sealer = pipeline.cipher;
    expect(await importBuyersIfEmpty(db, sealer, file)).toBe(true);
    expect(await importBuyersIfEmpty(db, sealer, file)).toBe(false);
    const registry = new BuyerRegistry({ version: 0, file, paused: [] }, (b) => createBuyerAdapter(b));
    const applied: number[] = [];
    // A poll of a minute: within this test, only the change messages can bring a version in time.
    const watcher = new BuyerConfigWatcher({
      registry,
      version: () => currentBuyerVersion(db),
      load: () => currentBuyerConfig(db, sealer),
      subscriber: pipeline.redis.duplicate(),
      channel: buyerConfigChannel(pipeline.keyPrefix),
      pollMs: 60_000,
      logger: pino({ level: 'silent' }),
      onApplied: (version) => void applied.push(version),
    });
    await watcher.start();
    expect(registry.current.version).toBe(1);
    const worker = startWaterfallWorker(pipeline, file, { registry });
    const change = async (paused: string[]) => {
      const base = await currentBuyerVersion(db);
      const saved = await saveBuyerConfig(db, sealer, base, {
        ...who,
        action: paused.length ? 'pause' : 'resume',
        summary: 'test',
        file,
        paused,
      });
      if (saved === 'conflict') throw new Error('conflict');
      await publishBuyerConfigChange(pipeline.redis, pipeline.keyPrefix, saved.version);
      await expect.poll(() => registry.current.version).toBe(saved.version);
    };
    try {
      await change(['first']);
      const before = await sandbox.stats();
      const leads = await Promise.all(Array.from({ length: 10 }, () => pipeline.submitLead()));
      for (const id of leads) {
        expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
        expect(worker.attemptsOf(id).map((a) => a.buyer)).toEqual(['second']);
      }
      const paused = await sandbox.stats();
      expect(paused.first!.attempts - before.first!.attempts).toBe(0);
      expect(paused.second!.attempts - before.second!.attempts).toBe(10);

      await change([]);
      const id = await pipeline.submitLead();
      expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
      expect(worker.attemptsOf(id).map((a) => a.buyer)).toEqual(['first']);
      expect(applied).toEqual([1, 2, 3]);
    } finally {
      await worker.close();
      await watcher.stop();
      await registry.close();
      await pipeline.close();
    }
  });

  it('sends the sample lead to a buyer on a manager’s test, paused or not, and answers what the buyer said', async () => {
    const file = buyersFile([
      { id: 'first', tier: 1, protocol: 'sync-post', baseUrl: sandbox.buyerUrl('first'), priceLadder: [5] },
    ]);
    const registry = new BuyerRegistry({ version: 1, file, paused: ['first'] }, (b) => createBuyerAdapter(b));
    const test = createBuyerTestProcessor(registry);
    try {
      const before = await sandbox.stats();
      const answer = await test({ data: { buyerId: 'first', requestId: 'test-request-0001' } } as Job);
      expect(answer).toMatchObject({ buyer: 'first', outcome: 'sold' });
      expect(answer.price).toBeGreaterThanOrEqual(5);
      expect((await sandbox.stats()).first!.attempts - before.first!.attempts).toBe(1);
      expect(await test({ data: { buyerId: 'gone', requestId: 'test-request-0002' } } as Job)).toMatchObject({
        outcome: 'error',
        message: 'No buyer has this id here.',
      });
    } finally {
      await registry.close();
    }
  });

  it('offers a buyer that needs its key no lead and no test, and offers it leads again once it has one', async () => {
    const pipeline = new Pipeline();
    const file = buyersFile([buyer('first', 1), buyer('second', 2)]);
    // Version 2: an admin moved `first` to another origin; its credential was dropped with the move.
    const registry = new BuyerRegistry({ version: 2, file, paused: [], keysNeeded: ['first'] }, (b) =>
      createBuyerAdapter(b),
    );
    const worker = startWaterfallWorker(pipeline, file, { registry });
    try {
      const before = await sandbox.stats();
      const leads = await Promise.all(Array.from({ length: 5 }, () => pipeline.submitLead()));
      for (const id of leads) {
        expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
        expect(worker.attemptsOf(id).map((a) => a.buyer)).toEqual(['second']);
      }
      const test = await createBuyerTestProcessor(registry)({
        data: { buyerId: 'first', requestId: 'test-request-keys' },
      } as Job);
      expect(test).toMatchObject({ outcome: 'error', message: 'It needs its key: not sent.' });
      expect((await sandbox.stats()).first!.attempts - before.first!.attempts).toBe(0);

      // Version 3: an admin entered a credential.
      const keyed = buyersFile([{ ...buyer('first', 1), apiKey: 'first-new-key' }, buyer('second', 2)]);
      registry.apply({ version: 3, file: keyed, paused: [], keysNeeded: [] });
      const id = await pipeline.submitLead();
      expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
      expect(worker.attemptsOf(id).map((a) => a.buyer)).toEqual(['first']);
    } finally {
      await worker.close();
      await registry.close();
      await pipeline.close();
    }
  });

  it('never connects to a buyer at a non-public address outside the allowed ranges, a name resolving there included', async () => {
    const port = new URL(sandbox.buyerUrl('first')).port;
    let calls = 0;
    const call = async (baseUrl: string, addresses: AddressAllowList) => {
      const adapter = createBuyerAdapter(
        {
          ...buyersFile([{ id: 'first', tier: 1, protocol: 'sync-post', baseUrl, priceLadder: [0] }])
            .buyers[0]!,
        },
        undefined,
        { addresses },
      );
      try {
        return await adapter.post(sampleLeadRecord(), {
          key: `test-address-check-${(calls += 1)}`,
          floor: 5,
          budgetMs: 3000,
        });
      } catch (error) {
        return error;
      } finally {
        await adapter.close();
      }
    };
    const none = new AddressAllowList([]);
    const before = await sandbox.stats();
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const refused = await call(`http://${host}:${port}/buyers/first`, none);
      expect(refused, host).toBeInstanceOf(RetryableLenderError);
      expect((refused as RetryableLenderError).kind, host).toBe('address_refused');
    }
    expect((await sandbox.stats()).first!.attempts).toBe(before.first!.attempts);
    // Listed, loopback is reached (the local runs' and tests' default).
    const loopback = new AddressAllowList(['127.0.0.0/8', '::1/128']);
    expect(await call(`http://localhost:${port}/buyers/first`, loopback)).toMatchObject({ kind: 'sold' });
    expect((await sandbox.stats()).first!.attempts).toBe(before.first!.attempts + 1);
  });

  it('reaches a version whose message was lost by its poll, keeps its buyers when the newest cannot be read, and notes a heartbeat at each check', async () => {
    const pipeline = new Pipeline();
    const other = testSchema('buyerspoll');
    const pollDb = openDatabase({ url: testDatabaseUrl(), schema: other, max: 2 });
    await migrate(pollDb, other);
    const file = buyersFile([
      { id: 'first', tier: 1, protocol: 'sync-post', baseUrl: sandbox.buyerUrl('first'), priceLadder: [0] },
    ]);
    await importBuyersIfEmpty(pollDb, pipeline.cipher, file);
    const registry = new BuyerRegistry({ version: 0, file, paused: [] }, (b) => createBuyerAdapter(b));
    let failing = false;
    const heartbeats: number[] = [];
    const watcher = new BuyerConfigWatcher({
      registry,
      version: () => currentBuyerVersion(pollDb),
      load: async () => {
        if (failing) throw new Error('PostgreSQL away');
        return currentBuyerConfig(pollDb, pipeline.cipher);
      },
      subscriber: pipeline.redis.duplicate(),
      channel: buyerConfigChannel(pipeline.keyPrefix),
      pollMs: 100,
      logger: pino({ level: 'silent' }),
      onChecked: (version) => void heartbeats.push(version),
    });
    try {
      await watcher.start();
      failing = true;
      await saveBuyerConfig(pollDb, pipeline.cipher, 1, {
        ...who,
        action: 'pause',
        summary: 't',
        file,
        paused: ['first'],
      });
      const before = heartbeats.length;
      await watcher.check();
      expect(registry.current.version).toBe(1);
      expect(registry.isPaused('first')).toBe(false);
      // A check that could not read the newest version is still a heartbeat, of the version the worker runs.
      expect(heartbeats.length).toBeGreaterThan(before);
      expect(heartbeats.at(-1)).toBe(1);
      failing = false;
      // No message was published: the poll brings it.
      await expect.poll(() => registry.isPaused('first')).toBe(true);
      expect(registry.current.version).toBe(2);
      // A check that finds nothing newer is a heartbeat too: a worker idle for an hour is not gone.
      const idle = heartbeats.length;
      await watcher.check();
      expect(heartbeats.length).toBeGreaterThan(idle);
      expect(heartbeats.at(-1)).toBe(2);
    } finally {
      await watcher.stop();
      await registry.close();
      await pipeline.close();
      await pollDb.destroy();
      await dropSchema(other);
    }
  });
});
