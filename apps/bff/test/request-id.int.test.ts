import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { createLogger } from '../src/logger.js';
import { logSink } from './log-sink.js';
import { startTestApp, type TestApp } from './test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let t: TestApp;
  const { sink, entries } = logSink();

  beforeAll(async () => {
    t = await startTestApp({ logger: createLogger('info', sink) });
  });
  afterAll(async () => {
    await t.close();
  });

  const badLead = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: { amount: 'lots' }, headers });
  const accessLineOf = (requestId: string) =>
    entries().filter((line) => line.msg === 'request completed' && line.reqId === requestId);

  it("a 400 carries the caller's X-Request-Id in its body, its header and its log line", async () => {
    const response = await badLead({ 'x-request-id': 'edge-7f3a.2026:11' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['x-request-id']).toBe('edge-7f3a.2026:11');
    const body = ApiErrorSchema.parse(response.json());
    expect(body.error).toMatchObject({ code: 'VALIDATION_FAILED', requestId: 'edge-7f3a.2026:11' });
    expect(accessLineOf('edge-7f3a.2026:11')).toMatchObject([{ statusCode: 400, url: '/api/v1/lead' }]);
  });

  it('a request without one, or with one too long or with unsafe characters, gets a new random id', async () => {
    const sent = ['', 'x'.repeat(129), 'id with spaces', 'ssn=123-45-6789&x', 'é'];
    const ids: string[] = [];
    for (const value of [undefined, ...sent]) {
      const response = await badLead(value === undefined ? {} : { 'x-request-id': value });
      const id = response.headers['x-request-id'] as string;
      expect(id).toMatch(UUID);
      expect(ApiErrorSchema.parse(response.json()).error.requestId).toBe(id);
      expect(accessLineOf(id)).toHaveLength(1);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every answer carries one, success and unknown route alike', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/v1/lookup/zip/10001' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-request-id']).toMatch(UUID);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/nowhere',
      headers: { 'x-request-id': 'r1' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('r1');
    expect(ApiErrorSchema.parse(missing.json()).error.requestId).toBe('r1');
  });
});
