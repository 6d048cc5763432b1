import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostbackLogSchema } from '@funnel/contracts/postbacks';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-token-'.padEnd(40, 'x');

describe('GET /api/v1/admin/postbacks', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_API_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists a lead's postback attempts to the operator only", async () => {
    const leadId = 'k3J9xQ2mVb7TzR1pL8wN4A';
    await t.app.leadStore.postbacks.record(
      leadId,
      {
        event: 'sold',
        affiliate: 'aff-acme',
        attempt: 1,
        result: 'failed',
        status: 500,
        at: '2026-11-24T10:00:00.000Z',
        ms: 12,
      },
      60_000,
    );
    await t.app.leadStore.postbacks.record(
      leadId,
      {
        event: 'sold',
        affiliate: 'aff-acme',
        attempt: 2,
        result: 'delivered',
        status: 200,
        at: '2026-11-24T10:00:05.000Z',
        ms: 9,
      },
      60_000,
    );
    const url = `/api/v1/admin/postbacks?leadId=${leadId}`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const answer = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(200);
    const log = PostbackLogSchema.parse(answer.json());
    expect(log.deliveries.map((d) => [d.attempt, d.result, d.status])).toEqual([
      [1, 'failed', 500],
      [2, 'delivered', 200],
    ]);
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/postbacks?leadId=AAAAAAAAAAAAAAAAAAAAAA',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(none.json()).toEqual({ leadId: 'AAAAAAAAAAAAAAAAAAAAAA', deliveries: [] });
  });
});
