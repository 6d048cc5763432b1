import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { businessDaysAfter } from '@funnel/contracts/buyer-opt-out';
import { CLIENT_TO_SERVER as server } from '@funnel/contracts/fields';
import { JOBS } from '@funnel/contracts/jobs';
import { migrate, openDatabase } from '@funnel/db/database';
import { loadDoNotCallFile } from '@funnel/db/do-not-call';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startApp } from '@funnel/testing/processes';
import { enqueue } from '@funnel/server-runtime/job-queue';
import { Pipeline } from './pipeline-fixture.js';
import { startBuyersSandbox, workerProcessEnv } from './waterfall-fixture.js';

const schema = testSchema('buyers');
const db = openDatabase({ url: testDatabaseUrl(), schema });
let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

beforeAll(async () => {
  await migrate(db, schema);
  sandbox = await startBuyersSandbox([
    { id: 'never', protocol: 'sync-post', seed: 2, interestShare: 0, latencyMinMs: 0, latencyMaxMs: 0 },
    {
      id: 'always',
      protocol: 'sync-post',
      seed: 3,
      interestShare: 1,
      maxValue: 500,
      latencyMinMs: 0,
      latencyMaxMs: 0,
    },
    // Slow enough that a worker killed a moment after the leads arrive dies in the middle of their walks.
    {
      id: 'slow-never',
      protocol: 'sync-post',
      seed: 4,
      interestShare: 0,
      latencyMinMs: 400,
      latencyMaxMs: 800,
    },
    {
      id: 'slow-network',
      protocol: 'lead-service',
      seed: 5,
      soldShare: 1,
      pendingShare: 1,
      pendingMinMs: 1000,
      pendingMaxMs: 3000,
      latencyMinMs: 50,
      latencyMaxMs: 200,
    },
    // Bids only on a lead screening put in band B or better, as the ping tells it.
    {
      id: 'band-b',
      protocol: 'ping-post',
      seed: 6,
      bidRate: 1,
      acceptShare: 1,
      minQualityBand: 'B',
      latencyMinMs: 0,
      latencyMaxMs: 0,
    },
    {
      id: 'network-now',
      protocol: 'lead-service',
      seed: 7,
      soldShare: 1,
      pendingShare: 0,
      latencyMinMs: 0,
      latencyMaxMs: 0,
    },
  ]);
});
afterAll(async () => {
  await sandbox.process.stop();
  await db.destroy();
  await dropSchema(schema);
});

it('the worker process walks its buyers file, records every attempt in PostgreSQL and counts it in its metrics', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'buyers-')), 'buyers.json');
  writeFileSync(
    file,
    JSON.stringify({
      timeZone: 'America/Chicago',
      buyers: [
        {
          id: 'never',
          protocol: 'sync-post',
          baseUrl: sandbox.buyerUrl('never'),
          tier: 1,
          priceLadder: [50, 10],
        },
        {
          id: 'always',
          protocol: 'sync-post',
          baseUrl: sandbox.buyerUrl('always'),
          tier: 2,
          priceLadder: [0],
        },
      ],
    }),
  );
  const pipeline = new Pipeline();
  const metricsPort = await freePort();
  const worker = await startApp({
    entry: 'apps/worker/src/main.ts',
    env: pipeline.workerEnv(sandbox.url, {
      LOG_LEVEL: 'info',
      BUYERS_FILE: file,
      DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      WORKER_METRICS_PORT: String(metricsPort),
    }),
    readyLog: /worker started/,
  });
  try {
    const id = await pipeline.submitLead();
    expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');

    let rows: {
      buyer: string;
      floor: string | number | null;
      result: string;
      price: string | number | null;
    }[] = [];
    for (let i = 0; i < 200 && rows.length < 3; i++) {
      rows = await db
        .selectFrom('buyer_attempts')
        .select(['buyer', 'floor', 'result', 'price'])
        .where('lead_id', '=', id)
        .orderBy('step')
        .execute();
      if (rows.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows.map((r) => [r.buyer, Number(r.floor), r.result])).toEqual([
      ['never', 50, 'rejected'],
      ['never', 10, 'rejected'],
      ['always', 0, 'sold'],
    ]);
    const price = Number(rows[2]!.price);
    expect(price).toBeGreaterThanOrEqual(0);
    // Screened once before the first buyer (ADR 0029): its verdict is in the stream ahead of the attempts.
    const screened = await db
      .selectFrom('lead_events')
      .select('data')
      .where('lead_id', '=', id)
      .where('type', '=', 'screened')
      .execute();
    expect(screened.map((row) => (row.data as { verdict: string; reasons: string[] }).verdict)).toEqual([
      'pass',
    ]);

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain('funnel_buyer_attempts_total{buyer="never",result="rejected"} 2');
    expect(metrics).toContain('funnel_buyer_attempts_total{buyer="always",result="sold"} 1');
    expect(metrics).toContain(`funnel_buyer_revenue_dollars_total{buyer="always"} ${price}`);
    // Each buyer's calls in flight against its share (ADR 0017): none once the walks are over.
    expect(metrics).toContain('funnel_buyer_in_flight{buyer="always"} 0');
  } finally {
    await worker.stop();
    await pipeline.close();
  }
});

it('buyers choose by screening and by law: a lowest score, the band in the ping, a price by band, a rate cap (issue 41)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'buyers-'));
  const file = join(dir, 'buyers.json');
  const always = { protocol: 'sync-post', baseUrl: sandbox.buyerUrl('always'), priceLadder: [0] };
  // Both lend at up to 99 % APR, which Illinois forbids; the network states no APR.
  const highRate = { maxApr: 99 };
  writeFileSync(
    file,
    JSON.stringify({
      timeZone: 'America/Chicago',
      buyers: [
        { id: 'picky', ...always, tier: 1, filters: { minScreeningScore: 90, ...highRate } },
        {
          id: 'band-b',
          protocol: 'ping-post',
          baseUrl: sandbox.buyerUrl('band-b'),
          tier: 2,
          filters: highRate,
        },
        {
          id: 'network',
          protocol: 'lead-service',
          baseUrl: sandbox.buyerUrl('network-now'),
          tier: 3,
          price: 20,
          priceByBand: { A: 45, B: 30 },
        },
      ],
    }),
  );
  // A schema of its own: the first worker in a schema imports its buyers file there, and later ones run that.
  const ownSchema = testSchema('buyers-screening');
  const ownDb = openDatabase({ url: testDatabaseUrl(), schema: ownSchema });
  await migrate(ownDb, ownSchema);
  // One borrower's number is on the Do Not Call registry: that lead goes on flagged, scoring 70.
  const registry = join(dir, 'dnc-512.txt');
  writeFileSync(registry, '512,5550177\n');
  await loadDoNotCallFile(ownDb, registry);
  const pipeline = new Pipeline();
  const worker = await startApp({
    entry: 'apps/worker/src/main.ts',
    env: pipeline.workerEnv(sandbox.url, {
      LOG_LEVEL: 'info',
      BUYERS_FILE: file,
      DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${ownSchema}`)}`,
      WORKER_METRICS_PORT: String(await freePort()),
      LITIGATOR_LIST_URL: `${sandbox.url}/blacklist-alliance`,
      LITIGATOR_LIST_API_KEY: 'sandbox-litigator-key',
    }),
    readyLog: /worker started/,
  });
  /** The buyers offered the lead, and the price of the sale, once the worker has recorded them. */
  const boughtBy = async (id: string) => {
    expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
    for (let i = 0; i < 200; i++) {
      const rows = await ownDb
        .selectFrom('buyer_attempts')
        .select(['buyer', 'result', 'price'])
        .where('lead_id', '=', id)
        .orderBy('step')
        .execute();
      const sold = rows.find((row) => row.result === 'sold');
      if (sold) return { offered: rows.map((row) => row.buyer), price: Number(sold.price) };
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  };
  try {
    const clean = await pipeline.submitLead();
    const listed = await pipeline.submitLead({ fields: { [server.phone]: '5125550177' } });
    const illinois = await pipeline.submitLead({
      fields: { [server.state]: 'IL', [server.zipCode]: '60601' },
    });
    // Screened 100 (band A): the picky buyer takes it.
    expect((await boughtBy(clean))?.offered).toEqual(['picky']);
    // Screened 70 (band B): too low for picky; the ping says B, and band-b bids and buys.
    expect((await boughtBy(listed))?.offered).toEqual(['band-b']);
    // Band A, but in Illinois: only the network may lend there, and it pays its band-A price.
    expect(await boughtBy(illinois)).toEqual({ offered: ['network'], price: 45 });
    expect((await pipeline.store.get(listed))?.submission?.screening).toMatchObject({
      verdict: 'flag',
      score: 70,
      reasons: ['phone_do_not_call'],
    });
  } finally {
    await worker.stop();
    await pipeline.close();
    await ownDb.destroy();
    await dropSchema(ownSchema);
  }
});

it('a worker SIGKILLed mid-walk: another resumes every walk, no buyer sees an attempt twice', async () => {
  const pipeline = new Pipeline();
  const env = workerProcessEnv(pipeline, sandbox.url, {
    timeZone: 'America/Chicago',
    buyers: [
      {
        id: 'slow-never',
        protocol: 'sync-post',
        baseUrl: sandbox.buyerUrl('slow-never'),
        tier: 1,
        priceLadder: [60, 30, 5],
      },
      {
        id: 'slow-network',
        protocol: 'lead-service',
        baseUrl: sandbox.buyerUrl('slow-network'),
        tier: 2,
        price: 20,
        timeouts: { attemptMs: 20_000, pollMs: 200 },
      },
    ],
  });
  const first = await startApp({ entry: 'apps/worker/src/main.ts', env, readyLog: /worker started/ });
  let second: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const before = await sandbox.stats();
    const ids = await Promise.all(Array.from({ length: 12 }, () => pipeline.submitLead()));
    // Some walks are mid-ladder at the slow buyer, some pending at the network, when the worker dies.
    await new Promise((r) => setTimeout(r, 1500));
    await first.kill();
    second = await startApp({ entry: 'apps/worker/src/main.ts', env, readyLog: /worker started/ });
    const outcomes = await Promise.all(ids.map((id) => pipeline.finalOutcome(id, 60_000)));
    expect(outcomes.map((o) => `${o.outcome}:${o.reason ?? ''}`)).toEqual(ids.map(() => 'sold:'));
    const after = await sandbox.stats();
    // Every lead at each of the three floors once, and at the network once: never a second attempt.
    expect(after['slow-never']!.attempts - before['slow-never']!.attempts).toBe(36);
    expect(after['slow-network']!.attempts - before['slow-network']!.attempts).toBe(12);
    expect(after['slow-never']!.repeatedAttempts + after['slow-network']!.repeatedAttempts).toBe(0);
  } finally {
    await second?.stop();
    await first.stop();
    await pipeline.close();
  }
});

it("tells every buyer that received a lead of its borrower's opt-out, signed, until each acknowledges (issue 41)", async () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const optOuts = `${sandbox.url}/_sandbox/opt-outs`;
  await fetch(optOuts, { method: 'DELETE' });
  const buyers = {
    timeZone: 'America/Chicago',
    buyers: [
      // Declines, then buys: both received the lead. The third never hears of it (it is never reached).
      { id: 'never', protocol: 'sync-post', baseUrl: sandbox.buyerUrl('never'), tier: 1, priceLadder: [0] },
      { id: 'always', protocol: 'sync-post', baseUrl: sandbox.buyerUrl('always'), tier: 2, priceLadder: [0] },
      { id: 'spare', protocol: 'sync-post', baseUrl: sandbox.buyerUrl('always'), tier: 3, priceLadder: [0] },
    ].map((buyer) => ({ ...buyer, optOutUrl: `${sandbox.url}/buyers/${buyer.id}/opt-outs` })),
  };
  const ownSchema = testSchema('buyers-opt-out');
  const ownDb = openDatabase({ url: testDatabaseUrl(), schema: ownSchema });
  await migrate(ownDb, ownSchema);
  const pipeline = new Pipeline();
  const worker = await startApp({
    entry: 'apps/worker/src/main.ts',
    env: {
      ...workerProcessEnv(pipeline, sandbox.url, buyers),
      DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${ownSchema}`)}`,
      BUYER_WEBHOOK_SECRETS: ['never', 'always'].map((id) => `${id}:${secret}`).join(','),
      PARTNER_WEBHOOK_INSECURE: 'true',
    },
    readyLog: /worker started/,
  });
  try {
    const leadId = await pipeline.submitLead();
    expect((await pipeline.finalOutcome(leadId)).outcome).toBe('sold');
    // The first notice is refused (503); the queue tries again a moment later (a minute, deployed).
    await fetch(optOuts, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failNext: 1 }),
    });
    const requestedAt = new Date();
    await enqueue(
      pipeline.queues,
      JOBS.buyerOptOut,
      { leadId, kind: 'do_not_sell', requestedAt: requestedAt.toISOString(), told: [] },
      { backoff: { type: 'fixed', delay: 300 } },
    );
    type Notice = { buyer: string; body: string; status: number } & Record<string, string>;
    let notices: Notice[] = [];
    for (let i = 0; i < 100 && notices.filter((n) => n.status === 204).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      notices = ((await (await fetch(optOuts)).json()) as { notices: Notice[] }).notices;
    }
    // never: refused once, then acknowledged; always: acknowledged at once, and not told again on the retry.
    expect(notices.map((n) => [n.buyer, n.status])).toEqual([
      ['never', 503],
      ['always', 204],
      ['never', 204],
    ]);
    for (const notice of notices) {
      const verified = new Webhook(secret).verify(notice.body, {
        'webhook-id': notice.webhookId!,
        'webhook-timestamp': notice.webhookTimestamp!,
        'webhook-signature': notice.webhookSignature!,
      });
      expect(verified).toMatchObject({
        type: 'opt_out',
        kind: 'do_not_sell',
        reference: leadId,
        requestedAt: requestedAt.toISOString(),
        respondBy: businessDaysAfter(requestedAt.toISOString(), 10),
      });
    }
    // Each attempt is in the lead's journey.
    let attempts: unknown[] = [];
    for (let i = 0; i < 100 && attempts.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      attempts = (
        await ownDb
          .selectFrom('lead_events')
          .select('data')
          .where('lead_id', '=', leadId)
          .where('type', '=', 'delivery_attempt')
          .orderBy('at')
          .execute()
      ).map((row) => row.data);
    }
    expect(attempts).toEqual([
      expect.objectContaining({
        channel: 'buyer_opt_out',
        target: 'never',
        event: 'do_not_sell',
        status: 503,
      }),
      expect.objectContaining({ channel: 'buyer_opt_out', target: 'always', result: 'delivered' }),
      expect.objectContaining({ channel: 'buyer_opt_out', target: 'never', result: 'delivered' }),
    ]);
    // always was told in the run that never refused, never alone in the next. A first run may have waited for
    // the drain to record the outcome (a loaded CI run did), so the numbers start wherever the telling began.
    const [refused, always, again] = attempts as Array<{ attempt: number }>;
    expect([always!.attempt, again!.attempt]).toEqual([refused!.attempt, refused!.attempt + 1]);
  } finally {
    await worker.stop();
    await pipeline.close();
    await ownDb.destroy();
    await dropSchema(ownSchema);
  }
});
