import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { createLogger } from '../src/logger.js';
import { writePrimeBuyersFile } from './buyer-keys.js';
import { logSink } from './log-sink.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-failures-'.padEnd(48, 'f');
const admin = { authorization: `Bearer ${TOKEN}` };

// A fallback that hides its failure hides an outage: each one is logged with its cause and counted.
describe('failures the BFF answers around', () => {
  const schema = testSchema('handledfail');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'handled-failures-'));
  const { sink, entries } = logSink();
  let db: Kysely<Database>;
  let t: TestApp;

  const handled = async (operation: string) => {
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    const line = new RegExp(`^funnel_handled_failures_total\\{operation="${operation}"\\} (\\d+)$`, 'm');
    return Number(line.exec(metrics.body)?.[1] ?? 0);
  };
  const reported = (operation: string) =>
    entries().filter((entry) => entry.msg === 'failure answered around' && entry.operation === operation);

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      logger: createLogger('info', sink),
      env: {
        DATABASE_URL: url,
        ADMIN_API_TOKEN: TOKEN,
        BUYERS_FILE: writePrimeBuyersFile(folder, {
          windowDays: 5,
          cap: { count: 10, period: 'month' },
          autoApprove: { reasons: ['invalid_contact'] },
        }),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  it('reports a buyer test a worker took and failed, instead of answering that no worker took it', async () => {
    const worker = new Worker(
      JOBS.buyerTestLead.queue,
      async () => {
        throw new Error('the adapter broke on the sample lead');
      },
      {
        connection: t.redis.duplicate({ maxRetriesPerRequest: null }),
        prefix: queuePrefix(t.env.REDIS_KEY_PREFIX),
      },
    );
    try {
      const test = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/buyers/prime/test',
        headers: admin,
      });
      expect(test.statusCode, test.body).toBe(502);
      expect(test.json().error.message).not.toContain('adapter');
    } finally {
      await worker.close();
    }
    expect(await handled('buyer_test_lead')).toBe(1);
    expect(JSON.stringify(reported('buyer_test_lead'))).toContain('the adapter broke on the sample lead');
  });

  it('reports the system of record failing under the return terms, and still answers from BUYERS_FILE', async () => {
    await sql`drop table buyer_config_versions`.execute(db);
    const returns = await t.app.inject({ method: 'GET', url: '/api/v1/admin/returns', headers: admin });
    expect(returns.statusCode, returns.body).toBe(200);
    expect(await handled('buyer_return_terms')).toBe(1);
    expect(JSON.stringify(reported('buyer_return_terms'))).toContain('buyer_config_versions');
  });
});
