import type net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { createLogger } from '../src/logger.js';
import { cookieOf } from './funnel-answers.js';
import { sendRaw, type RawAnswer } from './raw-http.js';
import { startTestApp, type TestApp } from './test-app.js';

function get(path: string, extraHeaders = ''): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}Connection: close\r\n\r\n`;
}

/** The answer is in the one error shape with `code`, and says nothing of what the client sent. */
function expectErrorShape(answer: RawAnswer, code: string, neverEchoed: string): void {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const parsed = ApiErrorSchema.parse(JSON.parse(answer.body));
  expect(parsed.error.code).toBe(code);
  expect(answer.body).not.toContain(neverEchoed);
  expect(answer.body.length).toBeLessThan(300);
}

describe('HTTP edges', () => {
  let t: TestApp;
  let port: number;
  const lines: Array<{ level: number; msg: string; err?: unknown }> = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await startTestApp({ logger: createLogger('trace', sink) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  const saveName = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/lead/steps/lgname', headers: { cookie }, payload });
  const readLead = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });

  async function newLead(): Promise<string> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'OTHER', zipCode: '10001' },
    });
    expect(created.statusCode).toBe(201);
    return cookieOf(created);
  }

  it('a URL that does not decode (%ff%fe) gets 400 in the error shape, without the path', async () => {
    const answer = await sendRaw(port, get('/api/v1/lookup/zip/%ff%fe'));
    expect(answer.status).toBe(400);
    expectErrorShape(answer, 'BAD_REQUEST', '%ff');
  });

  it('a 10,000-character path parameter gets 414 in the error shape, without echoing it', async () => {
    const answer = await sendRaw(port, get(`/api/v1/lookup/zip/${'7'.repeat(10_000)}`));
    expect(answer.status).toBe(414);
    expectErrorShape(answer, 'URI_TOO_LONG', '7777777777');
  });

  it('a query string over 16 KB gets 431 in the error shape', async () => {
    const answer = await sendRaw(port, get(`/api/v1/lookup/zip/10001?q=${'x'.repeat(17_000)}`));
    expect(answer.status).toBe(431);
    expectErrorShape(answer, 'HEADERS_TOO_LARGE', 'xxxxxxxx');
  });

  it('an HTTP/1.1 request without a Host header gets 400 in the error shape; HTTP/1.0 may omit it', async () => {
    const noHost = await sendRaw(port, 'GET /api/v1/lookup/zip/10001 HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost.status).toBe(400);
    expectErrorShape(noHost, 'BAD_REQUEST', '10001');
    const posted = await sendRaw(
      port,
      'POST /api/v1/lead HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n' +
        'Connection: close\r\n\r\n{}',
    );
    expect(posted.status).toBe(400);
    expectErrorShape(posted, 'BAD_REQUEST', 'lead');
    const http10 = await sendRaw(port, 'GET /api/v1/lookup/zip/10001 HTTP/1.0\r\n\r\n');
    expect(http10.status).toBe(200);
  });

  it('a text/plain body (or any type but JSON) to a JSON route gets 415 in the error shape', async () => {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v1/lead',
        headers: { 'content-type': type },
        payload: JSON.stringify({ amount: 500, loanReason: 'OTHER', zipCode: '10001' }),
      });
      expect(answer.statusCode, type).toBe(415);
      expect(answer.json()).toEqual({
        error: {
          requestId: expect.any(String),
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Send the request body as JSON (Content-Type: application/json).',
        },
      });
    }
  });

  it('forbids framing one way: X-Frame-Options DENY beside frame-ancestors none', async () => {
    for (const url of ['/api/v1/config', '/api/v1/lookup/zip/10001', '/no-such-page']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      expect(answer.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('a stray byte after a request gets 400 in the error shape', async () => {
    const request =
      'POST /api/v1/lead HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      'Content-Length: 2\r\n\r\n{}\u0001GARBAGE';
    // The first request is answered (400: the body is empty of fields); the stray bytes are a second "request".
    const answer = await sendRaw(port, request + '\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(ApiErrorSchema.safeParse(JSON.parse(answer.body)).success).toBe(true);
    const garbage = await sendRaw(port, 'GARBAGE\u0001\r\n\r\n');
    expect(garbage.status).toBe(400);
    expectErrorShape(garbage, 'BAD_REQUEST', 'GARBAGE');
  });

  it('a body that is not JSON, or not declared as JSON, gets a fixed message in the error shape', async () => {
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      headers: { 'content-type': 'application/json' },
      payload: '{"amount": 500, <script>',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({
      error: {
        code: 'BAD_REQUEST',
        message: 'The request body is not valid JSON.',
        requestId: expect.any(String),
      },
    });
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      headers: { 'content-type': 'text/x-evil<script>' },
      payload: 'x',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(wrongType.body).not.toContain('evil');
  });

  it('a name with control, ANSI and bidi-override characters is refused and nothing is stored', async () => {
    const cookie = await newLead();
    const refused = await saveName(cookie, {
      firstName: '\u0000\u0007\u001b[31mBob\u202Eevil',
      lastName: 'Smith',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: {
        requestId: expect.any(String),
        code: 'VALIDATION_FAILED',
        message: 'Please remove unsupported characters.',
        fields: { firstName: 'Please remove unsupported characters.' },
      },
    });
    expect((await readLead(cookie)).json().answers.firstName).toBeUndefined();
  });

  it('free text is stored in NFC: a decomposed accent reads back composed', async () => {
    const cookie = await newLead();
    expect((await saveName(cookie, { firstName: 'Jose\u0301', lastName: 'Nun\u0303ez' })).statusCode).toBe(
      200,
    );
    expect((await readLead(cookie)).json().answers).toMatchObject({
      firstName: 'Jos\u00e9',
      lastName: 'Nu\u00f1ez',
    });
  });

  it('HEAD on the event stream with a valid session answers at once, headers only', async () => {
    const cookie = await newLead();
    const answer = await sendRaw(
      port,
      `HEAD /api/v1/lead/events HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(answer.body).toBe('');
  });

  it('HEAD on the lead answers headers only', async () => {
    const cookie = await newLead();
    const head = await t.app.inject({ method: 'HEAD', url: '/api/v1/lead', headers: { cookie } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('every answer carrying lead data says Cache-Control: no-store', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'OTHER', zipCode: '10001' },
    });
    expect(created.headers['cache-control']).toBe('no-store');
    const cookie = cookieOf(created);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      headers: { cookie },
      payload: { firstName: 'Maria', lastName: 'Garcia' },
    });
    expect(saved.headers['cache-control']).toBe('no-store');
    const lead = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(lead.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      headers: { cookie },
      payload: {},
    });
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('logs none of these client mistakes at error level, and none with a stack', () => {
    const loud = lines.filter((line) => line.level >= 50 || line.err !== undefined);
    expect(loud).toEqual([]);
    expect(lines.some((line) => line.msg === 'client error')).toBe(true);
  });
});
