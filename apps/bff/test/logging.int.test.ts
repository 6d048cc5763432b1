import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { logSink } from './log-sink.js';
import { FUNNEL_NOW, STEP_ANSWERS, cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

/** Everything a person typed that must never reach a log line. */
const NEVER_LOGGED = [
  '123456789',
  '123-45-6789',
  '000123456789',
  '021000021',
  'G1234-56789-01234',
  '1988-04-09',
  'Garcia',
  'maria.garcia',
];

/** The personal data `log` holds: what every check below relies on to see a leak. */
const leaked = (log: string) => NEVER_LOGGED.filter((secret) => log.includes(secret));

describe('logs', () => {
  let t: TestApp;
  const { sink, text: lines } = logSink();

  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW, logger: createLogger('trace', sink) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are read by a detector that finds personal data planted in them (positive control)', () => {
    lines.length = 0;
    t.app.log.warn({ planted: NEVER_LOGGED.join(' ') }, 'positive control');
    expect(leaked(lines.join(''))).toEqual(NEVER_LOGGED);
    lines.length = 0;
  });

  it('carry no personal data through a whole funnel, lookups, suggestions and a client report', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'OTHER', zipCode: '10001' },
    });
    expect(created.statusCode).toBe(201);
    const cookie = cookieOf(created);
    // Each save must have gone through: a refused one would never have reached the code that could log it.
    for (const [step, answer] of STEP_ANSWERS) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/lead/steps/${step}`,
        payload: answer,
        headers: { cookie },
      });
      expect(saved.statusCode, `${step}: ${saved.body}`).toBe(200);
    }
    // A malformed SSN, refused: the refusal must not echo it.
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/ssn',
      payload: { socialSecurityNumber: '123-45-678' },
      headers: { cookie },
    });
    expect(refused.statusCode).toBe(400);
    for (const url of [
      '/api/v1/lookup/routing/021000021',
      '/api/v1/suggest/last_name?q=Garcia',
      '/api/v1/suggest/address?q=350%20W%2031st&zip=10001',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const clientReport = await t.app.inject({
      method: 'POST',
      url: '/api/v1/logs',
      payload: {
        pretext: 'save failed',
        text: 'ssn 123-45-6789 for maria.garcia@example.com account 000123456789',
      },
    });
    expect(clientReport.statusCode).toBeLessThan(300);

    const log = lines.join('');
    expect(log).toContain('/api/v1/lookup/routing/:routingNumber');
    // Logged through the request's own logger, created on first use: it still carries the request id.
    const report = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'client report');
    expect(report).toMatchObject({ reqId: expect.any(String) });
    expect(leaked(log)).toEqual([]);
  });

  it('write one access line per request: method, route pattern, status and duration', async () => {
    lines.length = 0;
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/lookup/zip/10001?ref=maria.garcia' });
    expect(response.statusCode).toBe(200);
    const access = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request completed');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: '/api/v1/lookup/zip/:zip',
      statusCode: 200,
      reqId: expect.any(String),
    });
    expect(access[0].responseTime).toEqual(expect.any(Number));
    expect(lines.join('')).not.toContain('maria.garcia');
  });
});
