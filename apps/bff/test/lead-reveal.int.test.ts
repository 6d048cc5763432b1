import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '@funnel/contracts/operators';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { submittedLead } from './complete-lead.js';
import { FUNNEL_NOW } from './funnel-answers.js';
import { operatorCookies } from './operator-cookies.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-'.padEnd(40, 'r');
const EMAIL = 'maria.garcia@example.com';
const REASON = 'Borrower called to confirm the email on file';

describe("revealing a lead's masked answer (issue 33): admins only, for a reason, audited without the value", () => {
  const schema = testSchema('bffreveal');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let db: Kysely<Database>;
  let t: TestApp;
  let leadId: string;
  let cookies: Map<OperatorRole, string>;

  async function reveal(role: OperatorRole, payload: Record<string, unknown>, id = leadId) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/leads/${id}/reveal`,
      payload,
      headers: { cookie: cookies.get(role)! },
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  }

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({ now: () => FUNNEL_NOW, env: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN } });
    ({ id: leadId } = await submittedLead(t.app));
    cookies = await operatorCookies(t.app, 'ops.example');
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  const audit = () =>
    db
      .selectFrom('operator_audit')
      .select(['actor', 'action', 'outcome', 'lead_id', 'details'])
      .where('action', '=', 'leads.reveal')
      .orderBy('audit_id')
      .execute();

  it('refuses a viewer and a manager with 403, and records the refusals', async () => {
    for (const role of ['viewer', 'manager'] as const) {
      const refused = await reveal(role, { field: 'email', reason: REASON });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
      expect(JSON.stringify(refused.body)).not.toContain(EMAIL);
    }
    expect(await audit()).toEqual([
      expect.objectContaining({ actor: 'viewer@ops.example', outcome: 'denied', lead_id: leadId }),
      expect.objectContaining({ actor: 'manager@ops.example', outcome: 'denied', lead_id: leadId }),
    ]);
  });

  it('needs a reason and a field that may be revealed, and says which is wrong', async () => {
    const noReason = await reveal('admin', { field: 'email', reason: '  why  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.fields).toEqual({
      reason: 'Say why you need to see this value, in at least 10 characters.',
    });
    const birthDate = await reveal('admin', { field: 'dob', reason: REASON });
    expect(birthDate.status).toBe(400);
    expect(birthDate.body.error.fields.field).toMatch(/^field must be one of: firstName, /);
    expect(birthDate.body.error.fields.field).not.toContain('dob');
  });

  it('shows an admin the answer, sensitive ones to their last four, and audits the field and reason, never the value', async () => {
    const email = await reveal('admin', { field: 'email', reason: REASON });
    expect(email.status).toBe(200);
    expect(email.body).toEqual({ leadId, field: 'email', value: EMAIL, lastFourOnly: false });
    expect(email.headers['cache-control']).toBe('no-store');
    const ssn = await reveal('admin', { field: 'socialSecurityNumber', reason: REASON });
    expect(ssn.body).toEqual({
      leadId,
      field: 'socialSecurityNumber',
      value: '•••• 6789',
      lastFourOnly: true,
    });
    const bank = await reveal('admin', { field: 'bankAccount', reason: REASON });
    expect(bank.body.value).toBe('•••• 6789');

    const allowed = (await audit()).filter((entry) => entry.outcome === 'allowed');
    expect(allowed).toEqual([
      {
        actor: 'admin@ops.example',
        action: 'leads.reveal',
        outcome: 'allowed',
        lead_id: leadId,
        details: { field: 'email', reason: REASON },
      },
      expect.objectContaining({ details: { field: 'socialSecurityNumber', reason: REASON } }),
      expect.objectContaining({ details: { field: 'bankAccount', reason: REASON } }),
    ]);
    const everything = JSON.stringify(await db.selectFrom('operator_audit').selectAll().execute());
    for (const value of [EMAIL, '123-45-6789', '123456789', '000123456789'])
      expect(everything).not.toContain(value);
  });

  it('answers 404 once the lead is gone, and for an answer the lead never held', async () => {
    const unknown = await reveal('admin', { field: 'email', reason: REASON }, 'no-such-lead-0000000000');
    expect(unknown.status).toBe(404);
    await t.app.leadStore.purgeSensitive(leadId);
    const purged = await reveal('admin', { field: 'socialSecurityNumber', reason: REASON });
    expect(purged.status).toBe(404);
    expect(purged.body.error.message).toBe(
      'This lead holds no socialSecurityNumber: it was never given, or it was purged after the outcome.',
    );
    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/deletion-requests',
      payload: { email: EMAIL },
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(erased.json().leadsDeleted).toBe(1);
    const gone = await reveal('admin', { field: 'email', reason: REASON });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/^This lead's answers are no longer kept/);
  });
});
