// Issue 40, points 3, 7, 8 and 10: cross-site requests, control characters, lead searches by a person, and one
// audit entry per dashboard view (docs/adr/0025).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '@funnel/contracts/operators';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { operatorCookies } from './operator-cookies.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-hardening-'.padEnd(48, 'x');
const API = '/api/v1/admin';
const HOST = 'console.example';
const PERSON = 'looked.up@example.com';
const PERSON_PHONE = '(212) 555-0148';

describe('operator API hardening (issue 40)', () => {
  const schema = testSchema('ophardening');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'hardening-'));
  const file = path.join(folder, 'buyers.json');
  let db: Kysely<Database>;
  let t: TestApp;
  let cookies: Map<OperatorRole, string>;

  type Call = {
    method?: 'GET' | 'POST' | 'DELETE';
    url: string;
    role?: OperatorRole;
    payload?: unknown;
    headers?: Record<string, string>;
  };
  const call = ({ method = 'GET', url, role = 'admin', payload, headers = {} }: Call) =>
    t.app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      headers: { host: HOST, cookie: cookies.get(role)!, ...headers },
    });
  const machine = (request: Omit<Call, 'role' | 'headers'>) =>
    call({ ...request, headers: { cookie: '', authorization: `Bearer ${TOKEN}` } });
  const buyerPaused = async () =>
    (await machine({ url: `${API}/buyers` })).json().buyers.find((b: { id: string }) => b.id === 'prime')
      .paused;
  const auditOf = async (query: string) =>
    (await machine({ url: `${API}/audit?${query}` })).json().entries as Array<Record<string, unknown>>;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    writeFileSync(
      file,
      JSON.stringify({
        timeZone: 'America/New_York',
        buyers: [
          {
            id: 'prime',
            protocol: 'sync-post',
            baseUrl: 'http://127.0.0.1:4010/buyers/prime',
            apiKey: 'prime-secret-credential-1234',
            tier: 1,
            priceLadder: [50, 20],
          },
        ],
      }),
    );
    t = await startTestApp({
      env: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN, BUYERS_FILE: file, RATE_LIMIT_MAX: '100000' },
    });
    cookies = await operatorCookies(t.app, 'hardening.example');
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  describe('cross-site requests (point 3)', () => {
    it("refuses a body-less POST that a same-site page can make with the manager's cookie", async () => {
      for (const headers of [
        // A `no-cors` fetch or a form from another port of the same site, as a browser sends it.
        { origin: `http://${HOST}:8081`, 'sec-fetch-site': 'same-site' },
        { origin: `http://${HOST}:8081` },
        { 'sec-fetch-site': 'cross-site' },
        // No browser headers at all, and nothing a script of another origin cannot send.
        {},
      ] as Array<Record<string, string>>) {
        const response = await call({
          method: 'POST',
          url: `${API}/buyers/prime/pause`,
          role: 'manager',
          headers,
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
      }
      expect(await buyerPaused()).toBe(false);
      // A JSON body from another origin is refused too.
      const json = await call({
        method: 'POST',
        url: `${API}/deletion-requests`,
        payload: { email: 'someone@example.com' },
        headers: { origin: 'http://127.0.0.1:9999' },
      });
      expect(json.statusCode).toBe(403);
    });

    it('lets the console (its header, its own origin) and a machine client on the token act', async () => {
      const paused = await call({
        method: 'POST',
        url: `${API}/buyers/prime/pause`,
        role: 'manager',
        headers: { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin', 'x-requested-with': 'fetch' },
      });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(await buyerPaused()).toBe(true);
      const resumed = await machine({ method: 'POST', url: `${API}/buyers/prime/resume` });
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(await buyerPaused()).toBe(false);
    });
  });

  describe('control characters (point 7)', () => {
    it('answers a NUL byte in a path, query or body parameter with 400, and audits the refusal', async () => {
      const leadId = 'A'.repeat(22);
      const refused = [
        await call({
          method: 'POST',
          url: `${API}/leads/${leadId}%00/reveal`,
          payload: { field: 'email', reason: 'Borrower asked us to confirm it' },
        }),
        await call({ url: `${API}/audit?actor=a%00b` }),
        await call({ method: 'POST', url: `${API}/leads/search`, payload: { clickId: 'click\u0000id' } }),
        await call({
          method: 'POST',
          url: `${API}/leads/${leadId}/reveal`,
          payload: { field: 'email', reason: 'Borrower asked\u0007 us to confirm it' },
        }),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual([400, 400, 400, 400]);
      for (const response of refused) {
        expect(response.json()).toMatchObject({
          error: { code: 'BAD_REQUEST', message: expect.any(String) },
        });
      }
      expect(refused[2]!.json().error.fields).toEqual({ clickId: 'Remove the control character.' });

      const denied = await auditOf('outcome=denied&actor=admin-hardening.example');
      expect(denied.map((e) => [e.action, e.details])).toEqual([
        ['leads.reveal', { refused: 'control-character', fields: ['reason'] }],
        ['leads.search', { refused: 'control-character', fields: ['clickId'] }],
        ['audit.read', { refused: 'control-character', fields: ['actor'] }],
        ['leads.reveal', { refused: 'control-character', fields: ['leadId'] }],
      ]);
      expect(denied[3]!.leadId).toBe(`${leadId}\\u0000`);
    });

    it('keeps line breaks in free text, and answers a control character on a borrower route with 400', async () => {
      const reveal = await call({
        method: 'POST',
        url: `${API}/leads/${'B'.repeat(22)}/reveal`,
        payload: { field: 'email', reason: 'Borrower called:\nconfirm the address' },
      });
      expect(reveal.statusCode).toBe(404);
      const lookup = await t.app.inject({ url: '/api/v1/lookup/zip/100%0001' });
      expect(lookup.statusCode).toBe(400);
      expect(lookup.json()).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    });
  });

  describe('searches for a person (point 8)', () => {
    it('audits a lead search by email or phone with the filters given and keyed hashes, never the contact', async () => {
      const search = await call({
        method: 'POST',
        url: `${API}/leads/search`,
        role: 'viewer',
        payload: { email: PERSON.toUpperCase(), from: '2026-11-01' },
      });
      expect(search.statusCode, search.body).toBe(200);
      await call({
        method: 'POST',
        url: `${API}/leads/search`,
        role: 'manager',
        payload: { phone: PERSON_PHONE },
      });
      await call({
        method: 'POST',
        url: `${API}/leads/search`,
        role: 'manager',
        payload: { email: 'someone.else@example.com' },
      });

      const [entry] = await auditOf('action=leads.search&actor=viewer-hardening.example');
      expect(entry!.details).toEqual({
        filters: ['email', 'from'],
        from: '2026-11-01',
        emailHash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      const stored = JSON.stringify(await db.selectFrom('operator_audit').selectAll().execute());
      expect(stored).not.toContain(PERSON);
      expect(stored).not.toContain('555-0148');
      expect(stored).not.toContain('2125550148');
    });

    it('answers "who looked up this person" from the contact, and audits that search the same way', async () => {
      const lookUp = (payload: Record<string, unknown>) =>
        call({ method: 'POST', url: `${API}/audit/search`, payload: { ...payload, action: 'leads.search' } });
      const byEmail = await lookUp({ email: `  ${PERSON}` });
      expect(byEmail.statusCode, byEmail.body).toBe(200);
      expect(byEmail.json().entries.map((e: { actor: string }) => e.actor)).toEqual([
        'viewer@hardening.example',
      ]);
      const both = await lookUp({ email: PERSON, phone: '212-555-0148' });
      expect(both.json().entries.map((e: { actor: string }) => e.actor)).toEqual([
        'manager@hardening.example',
        'viewer@hardening.example',
      ]);
      expect((await lookUp({ email: 'nobody@example.com' })).json().entries).toEqual([]);
      expect((await lookUp({})).statusCode).toBe(400);

      const [own] = await auditOf('action=audit.read&actor=admin-hardening.example');
      expect(own!.route).toBe('/api/v1/admin/audit/search');
      expect(JSON.stringify(own)).not.toContain('nobody@example.com');
      expect(own!.details).toMatchObject({ emailHash: expect.any(String), action: 'leads.search' });
    });
  });

  describe('the dashboard (point 10)', () => {
    it('answers the five reports in one request, written as one reports.read entry', async () => {
      const before = (await auditOf('action=reports.read')).length;
      const dashboard = await call({
        url: `${API}/reports/dashboard?from=2026-11-01&to=2026-11-10`,
        role: 'viewer',
      });
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      expect(Object.keys(dashboard.json())).toEqual(['funnel', 'sales', 'buyers', 'affiliates', 'quality']);
      const entries = await auditOf('action=reports.read');
      expect(entries).toHaveLength(before + 1);
      expect(entries[0]).toMatchObject({
        actor: 'viewer@hardening.example',
        route: '/api/v1/admin/reports/dashboard',
        details: {
          reports: ['funnel', 'sales', 'buyers', 'affiliates', 'quality'],
          from: '2026-11-01',
          to: '2026-11-10',
        },
      });
    });
  });
});
