import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@funnel/testing/processes';
import { startTestApp, type TestApp } from './test-app.js';

const LANDING = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' };

describe('Redis unavailable (a redis-server of this test, killed and restarted)', () => {
  let server: RedisServer;
  let t: TestApp;
  const lines: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    server = await startRedisServer();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await startTestApp({ env: { REDIS_URL: server.url }, logger: pino({ level: 'info' }, sink) });
  });
  afterAll(async () => {
    // Up again (when the test stopped while it was down) so the app closes cleanly; then gone for good.
    await server.start().catch(() => undefined);
    await t.close();
    await server.kill();
  });

  const createLead = () => t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: LANDING });
  const readyz = () => t.app.inject({ method: 'GET', url: '/readyz' });

  it('answers 503 with Retry-After at once, reports not ready, and recovers without a restart', async () => {
    expect((await createLead()).statusCode).toBe(201);
    expect((await readyz()).statusCode).toBe(200);

    // Redis stays down until after these answers: a request that waited for it would never answer.
    await server.kill();
    const failed = await createLead();
    expect(failed.statusCode).toBe(503);
    expect(failed.headers['retry-after']).toBe('2');
    expect(failed.json()).toEqual({
      error: { code: 'UNAVAILABLE', message: expect.any(String), requestId: expect.any(String) },
    });
    expect((await readyz()).statusCode).toBe(503);
    for (let i = 0; i < 10; i += 1) expect((await createLead()).statusCode).toBe(503);

    await server.start();
    const deadline = Date.now() + 10_000;
    while ((await readyz()).statusCode !== 200) {
      if (Date.now() > deadline) throw new Error('not ready again within 10 s of Redis coming back');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await createLead()).statusCode).toBe(201);

    const warnings = lines.filter((l) => l.level >= 40).map((l) => l.msg);
    expect(warnings.filter((m) => m === 'redis unavailable; retrying in the background')).toHaveLength(1);
    expect(warnings.filter((m) => m === 'redis available again')).toHaveLength(1);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
