import { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReturnPolicy } from '@funnel/contracts/buyers';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { AffiliatePostbacksSchema, type PostbackJobEvent } from '@funnel/contracts/postbacks';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { fileReturn } from '@funnel/db/buyer-returns';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { returnStateOf, reverseReturn } from '@funnel/db/return-reversals';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { WebhookSender } from '../src/final-outcome/webhook-sender.js';
import { Pipeline } from './pipeline-fixture.js';
import { startPostbackQueueWorker, startReceiver } from './postback-receiver.js';
import { until } from '@funnel/testing/until';

const TZ = 'America/New_York';
const POLICY: ReturnPolicy = { windowDays: 7, cap: { percent: 100, period: 'month' }, autoApprove: true };

/**
 * A manager's reversal of a return and the affiliate's payout (ADR 0021, "Reversing a return"), against Redis,
 * BullMQ, PostgreSQL and a real HTTP receiver: the payout jobs read the return's status when they run.
 */
describe('affiliate payouts when a return is reversed', () => {
  const schema = testSchema('revpayout');
  let db: Kysely<Database>;
  let pipeline: Pipeline;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let queue: Queue;
  let events: EventOutbox;
  let worker: ReturnType<typeof startPostbackQueueWorker>;
  const sender = new WebhookSender({
    allowPrivateNetworks: true,
    connectTimeoutMs: 1000,
    responseTimeoutMs: 2000,
  });

  /** A sold lead of `affiliate` whose sold postback was delivered (it was paid), returned by its buyer at once. */
  async function returnedLead(affiliate: string): Promise<{ leadId: string; returnId: string }> {
    const leadId = await pipeline.store.create(SAMPLE_LEAD, { affiliateId: affiliate });
    await pipeline.store.setOutcome(leadId, { outcome: 'sold', redirectUrl: 'https://lender.example/o/1' });
    const delivery = { event: 'sold', affiliate, attempt: 1, status: 200, result: 'delivered' } as const;
    await pipeline.store.postbacks.record(
      leadId,
      { ...delivery, at: new Date().toISOString(), ms: 5 },
      3600_000,
    );
    await recordEvents(
      db,
      soldLeadEvents(leadId, { buyer: 'prime', price: 40, at: new Date(Date.now() - 86_400_000) }),
    );
    const filed = await fileReturn(db, {
      buyer: 'prime',
      keyHash: leadId,
      fingerprint: leadId,
      request: { reference: leadId, reason: 'invalid_contact' },
      policy: POLICY,
      timeZone: TZ,
      now: new Date(),
    });
    if (!('created' in filed)) throw new Error(filed.message);
    return { leadId, returnId: filed.created.returnId };
  }
  async function reverse(returnId: string) {
    const result = await reverseReturn(db, {
      returnId,
      reason: 'The buyer withdrew the return by email.',
      policyOf: () => POLICY,
      timeZone: TZ,
      now: new Date(),
      operator: 'max@example.com',
    });
    expect(result).toMatchObject({ reversed: true, from: 'approved' });
  }
  /** Queues the lead's payout job as the BFF does, and waits for what it did. */
  async function run(leadId: string, event: PostbackJobEvent): Promise<unknown> {
    const jobId = JOBS.affiliatePostback.jobId({ leadId, event });
    await queue.add(JOBS.affiliatePostback.name, { leadId, event }, { jobId });
    return until(
      'the postback job to finish',
      async () => (await queue.getJob(jobId))?.returnvalue ?? undefined,
    );
  }
  /** The lead's payout events in the outbox, drained into PostgreSQL as the worker's drainer does. */
  async function payoutEvents(leadId: string): Promise<LeadEvent[]> {
    const recorded = (await pipeline.redis.xrange(events.key, '-', '+'))
      .map(([, fields]) => JSON.parse(fields[1]!) as LeadEvent)
      .filter((e) => e.leadId === leadId && (e.type === 'payout_reversed' || e.type === 'payout_restored'));
    await recordEvents(db, recorded);
    return recorded;
  }

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    pipeline = new Pipeline();
    receiver = await startReceiver([]);
    events = new EventOutbox(pipeline.redis, { keyPrefix: pipeline.keyPrefix });
    queue = new Queue(JOBS.affiliatePostback.queue, {
      connection: pipeline.redis,
      prefix: queuePrefix(pipeline.keyPrefix),
    });
    worker = startPostbackQueueWorker(
      pipeline,
      {
        postbacks: AffiliatePostbacksSchema.parse({
          'aff-initech': {
            url: `${receiver.origin}/pb?lead={lead_id}&status={outcome}&payout={payout}`,
            events: ['sold', 'returned'],
            payout: { sold: 8 },
          },
          'aff-acme': {
            url: `${receiver.origin}/pb?lead={lead_id}&status={outcome}`,
            payout: { sold: 12.5 },
          },
        }),
        events,
        returns: { stateOf: (leadId) => returnStateOf(db, leadId) },
        sender,
      },
      1,
    );
  });
  afterAll(async () => {
    await worker.close();
    await queue.close();
    await sender.close();
    await receiver.close();
    await pipeline.close();
    await db.destroy();
    await dropSchema(schema);
  });

  it('never tells the affiliate of a return reversed before its payout job ran', async () => {
    const { leadId, returnId } = await returnedLead('aff-initech');
    await reverse(returnId);
    expect(await run(leadId, 'returned')).toEqual({ skipped: 'return no longer in effect' });
    expect(await run(leadId, 'return_reversed')).toEqual({ skipped: 'payout was not reversed' });
    expect(receiver.urls.filter((url) => url.includes(leadId))).toEqual([]);
    expect(await payoutEvents(leadId)).toEqual([]);
  });

  it('restores a reversed payout, and tells again the affiliate that was told of the reversal', async () => {
    const { leadId, returnId } = await returnedLead('aff-initech');
    expect(await run(leadId, 'returned')).toEqual({ delivered: 200 });
    await payoutEvents(leadId);
    // Before any reversal, a restore job finds nothing to restore.
    const early = JOBS.affiliatePostback.jobId({ leadId, event: 'return_reversed' });
    expect(await run(leadId, 'return_reversed')).toEqual({ skipped: 'return not reversed' });
    await (await queue.getJob(early))!.remove();

    await reverse(returnId);
    expect(await run(leadId, 'return_reversed')).toEqual({ delivered: 200 });
    expect(receiver.urls.filter((url) => url.includes(leadId))).toEqual([
      `/pb?lead=${leadId}&status=returned&payout=-8.00`,
      `/pb?lead=${leadId}&status=return_reversed&payout=8.00`,
    ]);
    expect(await payoutEvents(leadId)).toEqual([
      expect.objectContaining({ type: 'payout_reversed', affiliate: 'aff-initech', amount: 8 }),
      expect.objectContaining({ type: 'payout_restored', affiliate: 'aff-initech', amount: 8 }),
    ]);
  });

  it('restores the payout of an affiliate that takes no reversals without calling it', async () => {
    const { leadId, returnId } = await returnedLead('aff-acme');
    expect(await run(leadId, 'returned')).toEqual({ skipped: 'affiliate takes no reversals' });
    await payoutEvents(leadId);
    expect(await returnStateOf(db, leadId)).toEqual({ status: 'approved', payoutReversed: true });
    await reverse(returnId);
    expect(await run(leadId, 'return_reversed')).toEqual({
      skipped: 'affiliate was not told of the reversal',
    });
    expect(receiver.urls.filter((url) => url.includes(leadId))).toEqual([]);
    expect((await payoutEvents(leadId)).map((e) => [e.type, 'amount' in e && e.amount])).toEqual([
      ['payout_reversed', 12.5],
      ['payout_restored', 12.5],
    ]);
  });
});
