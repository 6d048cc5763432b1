import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openDatabase } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startApp } from '@funnel/testing/processes';
import { Pipeline } from './pipeline-fixture.js';
import { startBuyersSandbox } from './waterfall-fixture.js';

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
          priceLadder: [40],
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
      ['always', 40, 'sold'],
    ]);
    const price = Number(rows[2]!.price);
    expect(price).toBeGreaterThanOrEqual(40);

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain('funnel_buyer_attempts_total{buyer="never",result="rejected"} 2');
    expect(metrics).toContain('funnel_buyer_attempts_total{buyer="always",result="sold"} 1');
    expect(metrics).toContain(`funnel_buyer_revenue_dollars_total{buyer="always"} ${price}`);
  } finally {
    await worker.stop();
    await pipeline.close();
  }
});
