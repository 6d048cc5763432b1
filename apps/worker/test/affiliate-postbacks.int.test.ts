import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { AffiliatePostbacksSchema, type AffiliatePostbacks } from '@funnel/contracts/postbacks';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { DUPLICATE_REASON } from '@funnel/contracts/lead-outcome';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { createAffiliatePostbackNotifier } from '../src/final-outcome/affiliate-postback-notifier.js';
import { WebhookSender } from '../src/final-outcome/webhook-sender.js';
import { Pipeline, startSandbox } from './pipeline-fixture.js';
import { startPostbackQueueWorker, startReceiver } from './postback-receiver.js';
import { until } from '@funnel/testing/until';

/** The attribution an affiliate's visitor arrived with: every value a macro reads, some needing encoding. */
const TRACKING = {
  affiliateId: 'aff-acme',
  clickId: 'clk 42/&=?',
  affiliateSubId: 'sub-one',
  subSource: 'sub two',
  offerId: 'offer#3',
  adId: 'ad-4',
  utmCampaign: 'spring+sale',
  utmSource: 'acme-network',
};

const TEMPLATE =
  '/pb?cid={click_id}&lead={lead_id}&status={outcome}&payout={payout}&s1={sub1}&s2={sub2}&s3={sub3}' +
  '&s4={sub4}&s5={sub5}&src={utm_source}&ts={timestamp}';

describe('affiliate postbacks', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let postbacks: AffiliatePostbacks;
  let postbackQueue: Queue;
  let submission: Awaited<ReturnType<Pipeline['startWorker']>>;
  const sender = new WebhookSender({
    allowPrivateNetworks: true,
    connectTimeoutMs: 1000,
    responseTimeoutMs: 2000,
  });
  const answers: number[] = [];
  let notifyAffiliate: (leadId: string) => Promise<void>;

  const startPostbackWorker = (events?: EventOutbox) =>
    startPostbackQueueWorker(pipeline, { postbacks, events, sender }, 2);

  beforeAll(async () => {
    sandbox = await startSandbox();
    pipeline = new Pipeline();
    receiver = await startReceiver(answers);
    postbacks = AffiliatePostbacksSchema.parse({
      'aff-acme': { url: receiver.origin + TEMPLATE, payout: { sold: 12.5 } },
      'aff-globex': {
        url: `${receiver.origin}/pb?lead={lead_id}&status={outcome}`,
        events: ['sold', 'no_lender'],
      },
      'aff-initech': {
        url: `${receiver.origin}/pb?lead={lead_id}&status={outcome}&payout={payout}`,
        events: ['sold', 'returned'],
        payout: { sold: 8 },
      },
    });
    postbackQueue = new Queue(JOBS.affiliatePostback.queue, {
      connection: pipeline.redis,
      prefix: queuePrefix(pipeline.keyPrefix),
    });
    notifyAffiliate = createAffiliatePostbackNotifier({
      store: pipeline.store,
      queues: pipeline.queues,
      postbacks,
      jobOptions: { backoff: { type: 'fixed', delay: 100 } },
    });
    submission = await pipeline.startWorker(sandbox.url, { alsoOnFinalOutcome: notifyAffiliate });
  });
  afterAll(async () => {
    await submission.close();
    await postbackQueue.close();
    await sender.close();
    await receiver.close();
    await pipeline.close();
    await sandbox.process.stop();
  });
  beforeEach(async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 1, pendingShare: 0 });
    receiver.urls.length = 0;
    answers.length = 0;
  });

  it('posts a sold lead back with every macro filled and URL-encoded, retrying after a 500, and records each attempt', async () => {
    answers.push(500, 200);
    const events = new EventOutbox(pipeline.redis, { keyPrefix: pipeline.keyPrefix });
    const worker = startPostbackWorker(events);
    try {
      const leadId = await pipeline.submitLead({ tracking: TRACKING });
      expect((await pipeline.finalOutcome(leadId)).outcome).toBe('sold');
      const log = await until('the delivered postback in the log', async () => {
        const entries = await pipeline.store.postbacks.list(leadId);
        return entries.some((entry) => entry.result === 'delivered') ? entries : undefined;
      });

      expect(receiver.urls).toHaveLength(2);
      expect(receiver.urls[0]!.replace(/ts=\d+/, '')).toBe(receiver.urls[1]!.replace(/ts=\d+/, ''));
      const query = new URL(receiver.urls[1]!, receiver.origin).searchParams;
      expect(Object.fromEntries(query)).toEqual({
        cid: 'clk 42/&=?',
        lead: leadId,
        status: 'sold',
        payout: '12.50',
        s1: 'sub-one',
        s2: 'sub two',
        s3: 'offer#3',
        s4: 'ad-4',
        s5: 'spring+sale',
        src: 'acme-network',
        ts: expect.stringMatching(/^\d{10}$/),
      });
      // Encoded, not merely passed through: the click id's & and = did not split the query.
      expect(receiver.urls[1]).toContain('cid=clk%2042%2F%26%3D%3F');
      for (const value of Object.values(SAMPLE_LEAD)) {
        if (typeof value === 'string' && value.length >= 4)
          expect(receiver.urls.join(' ')).not.toContain(value);
      }
      expect(
        log.map(({ attempt, result, status, event, affiliate }) => ({
          attempt,
          result,
          status,
          event,
          affiliate,
        })),
      ).toEqual([
        { attempt: 1, result: 'failed', status: 500, event: 'sold', affiliate: 'aff-acme' },
        { attempt: 2, result: 'delivered', status: 200, event: 'sold', affiliate: 'aff-acme' },
      ]);
      // The same attempts go to the system of record for the lead's journey: the host, never the URL and its
      // click id; the failed one says when the queue tries again.
      const recorded = (await pipeline.redis.xrange(events.key, '-', '+'))
        .map(([, fields]) => JSON.parse(fields[1]!))
        .filter((e) => e.leadId === leadId && e.type === 'delivery_attempt');
      expect(recorded).toEqual([
        expect.objectContaining({
          eventId: `${leadId}.delivery.affiliate_postback.aff-acme.sold.1`,
          channel: 'affiliate_postback',
          target: 'aff-acme',
          host: new URL(receiver.origin).host,
          attempt: 1,
          maxAttempts: 8,
          result: 'failed',
          status: 500,
          nextAttemptAt: expect.any(String),
          gaveUp: false,
        }),
        expect.objectContaining({ attempt: 2, result: 'delivered', status: 200, gaveUp: false }),
      ]);
      expect(recorded[1]).not.toHaveProperty('nextAttemptAt');
      expect(JSON.stringify(recorded)).not.toContain('clk');

      // Settling the outcome again (a retried submission job, the reconciler) queues nothing more.
      await notifyAffiliate(leadId);
      const job = await postbackQueue.getJob(JOBS.affiliatePostback.jobId({ leadId, event: 'sold' }));
      expect(job?.attemptsMade).toBe(2);
    } finally {
      await worker.close();
    }
  });

  it('never posts back a lead deleted before its postback ran', async () => {
    const leadId = await pipeline.submitLead({ tracking: TRACKING });
    expect((await pipeline.finalOutcome(leadId)).outcome).toBe('sold');
    const jobId = JOBS.affiliatePostback.jobId({ leadId, event: 'sold' });
    await until(
      'the postback job to be queued',
      async () => (await postbackQueue.getJob(jobId)) !== undefined,
    );
    await pipeline.store.deleteLeads([leadId]);

    const worker = startPostbackWorker();
    try {
      const result = await until(
        'the postback job to finish',
        async () => (await postbackQueue.getJob(jobId))?.returnvalue ?? undefined,
      );
      expect(result).toEqual({ skipped: 'lead gone' });
      expect(receiver.urls).toEqual([]);
      expect(await pipeline.store.postbacks.list(leadId)).toEqual([]);
    } finally {
      await worker.close();
    }
  });

  it('never posts back a duplicate borrower, even to an affiliate paid on no-lender outcomes', async () => {
    const notify = createAffiliatePostbackNotifier({
      store: pipeline.store,
      queues: pipeline.queues,
      postbacks,
    });
    const leadId = await pipeline.store.create(SAMPLE_LEAD, { affiliateId: 'aff-globex' });
    await pipeline.store.setOutcome(leadId, { outcome: 'no_lender', reason: DUPLICATE_REASON });
    await notify(leadId);
    expect(
      await postbackQueue.getJob(JOBS.affiliatePostback.jobId({ leadId, event: 'no_lender' })),
    ).toBeUndefined();

    // Even a job that was queued anyway (an older worker, an operator's retry) sends nothing.
    const jobId = JOBS.affiliatePostback.jobId({ leadId, event: 'no_lender' });
    await postbackQueue.add(JOBS.affiliatePostback.name, { leadId, event: 'no_lender' }, { jobId });
    const worker = startPostbackWorker();
    try {
      const result = await until(
        'the postback job to finish',
        async () => (await postbackQueue.getJob(jobId))?.returnvalue ?? undefined,
      );
      expect(result).toEqual({ skipped: 'outcome does not qualify' });
      expect(receiver.urls).toEqual([]);
    } finally {
      await worker.close();
    }
  });

  it('reverses the payout of a returned lead its affiliate was paid for, and tells only an affiliate that takes reversals', async () => {
    const events = new EventOutbox(pipeline.redis, { keyPrefix: pipeline.keyPrefix });
    /** A sold lead of `affiliate`, whose sold postback was delivered when `paid`, then returned by its buyer. */
    async function returnedLead(affiliate: string, paid: boolean): Promise<string> {
      const leadId = await pipeline.store.create(SAMPLE_LEAD, { affiliateId: affiliate });
      await pipeline.store.setOutcome(leadId, { outcome: 'sold', redirectUrl: 'https://lender.example/o/1' });
      if (paid) {
        const delivery = { event: 'sold', affiliate, attempt: 1, status: 200, result: 'delivered' } as const;
        await pipeline.store.postbacks.record(
          leadId,
          { ...delivery, at: new Date().toISOString(), ms: 5 },
          3600_000,
        );
      }
      const jobId = JOBS.affiliatePostback.jobId({ leadId, event: 'returned' });
      await postbackQueue.add(JOBS.affiliatePostback.name, { leadId, event: 'returned' }, { jobId });
      return leadId;
    }
    const initech = await returnedLead('aff-initech', true);
    const acme = await returnedLead('aff-acme', true);
    const globex = await returnedLead('aff-globex', false);
    const worker = startPostbackWorker(events);
    try {
      const results = await Promise.all(
        [initech, acme, globex].map((leadId) =>
          until('the returned postback to finish', async () => {
            const job = await postbackQueue.getJob(
              JOBS.affiliatePostback.jobId({ leadId, event: 'returned' }),
            );
            return job?.returnvalue ?? undefined;
          }),
        ),
      );
      expect(results).toEqual([
        { delivered: 200 },
        { skipped: 'affiliate takes no reversals' },
        { skipped: 'affiliate was not paid for the lead' },
      ]);
      // Only the affiliate that lists `returned` is called, with the payout taken back.
      expect(receiver.urls).toEqual([`/pb?lead=${initech}&status=returned&payout=-8.00`]);
      const recorded = (await pipeline.redis.xrange(events.key, '-', '+')).map(([, fields]) =>
        JSON.parse(fields[1]!),
      );
      const reversals = recorded
        .filter((e) => e.type === 'payout_reversed' && [initech, acme, globex].includes(e.leadId))
        .sort((a, b) => (a.affiliate < b.affiliate ? -1 : 1));
      expect(reversals).toEqual([
        expect.objectContaining({ leadId: acme, affiliate: 'aff-acme', amount: 12.5 }),
        expect.objectContaining({
          leadId: initech,
          affiliate: 'aff-initech',
          amount: 8,
          eventId: `${initech}.payout_reversed`,
        }),
      ]);
    } finally {
      await worker.close();
    }
  });
});
