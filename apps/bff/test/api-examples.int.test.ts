import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_NAMES } from '@funnel/contracts/steps';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { buyerKey, writePrimeBuyersFile } from './buyer-keys.js';
import { LANDING } from './complete-lead.js';
import { cookieOf } from './funnel-answers.js';
import { partnerKey } from './partner-keys.js';
import { startTestApp, type TestApp } from './test-app.js';

interface Operation {
  operationId: string;
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

/** A documented request example: the operation, its path and method, and the body a reader would copy. */
interface Example {
  operationId: string;
  method: string;
  url: string;
  name: string;
  body: Record<string, unknown>;
}

function examplesOf(doc: { paths: Record<string, Record<string, Operation>> }): Example[] {
  return Object.entries(doc.paths).flatMap(([url, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      Object.entries(operation.requestBody?.content?.['application/json']?.examples ?? {}).map(
        ([name, example]) => ({
          operationId: operation.operationId,
          method: method.toUpperCase(),
          url,
          name,
          body: example.value as Record<string, unknown>,
        }),
      ),
    ),
  );
}

/**
 * Every request example the served API document gives (issue 40), sent as a reader would send it to a real BFF
 * on today's date, with the credentials its operation asks for: each must be accepted. An example whose dates
 * went stale (a pay date passed, a consent time in the future) is refused, and so fails here on the first day it
 * would fail a reader.
 */
describe('the documented request examples', () => {
  const schema = testSchema('apiexamples');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const partner = partnerKey('acme', 'aff-acme');
  const buyer = buyerKey('prime');
  const folder = mkdtempSync(path.join(tmpdir(), 'api-examples-'));
  let db: Kysely<Database>;
  let t: TestApp;
  let examples: Example[];

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      env: {
        DATABASE_URL: url,
        PARTNER_API_KEYS: partner.entry,
        // The example names a webhook: its partner has a secret to sign it with.
        PARTNER_WEBHOOK_SECRETS: `acme:whsec_${randomBytes(32).toString('base64')}`,
        BUYER_API_KEYS: buyer.entry,
        BUYERS_FILE: writePrimeBuyersFile(folder, {
          windowDays: 7,
          cap: { count: 10, period: 'month' },
          autoApprove: false,
        }),
      },
    });
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    examples = examplesOf(doc.json());
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  const send = (example: Example, headers: Record<string, string>) =>
    t.app.inject({ method: example.method as 'POST', url: example.url, payload: example.body, headers });
  const outcome = (example: Example, response: { statusCode: number; body: string }) =>
    `${example.operationId} (${example.name}): ${response.statusCode} ${response.body}`;

  it('documents examples for the steps, the partner lead and the buyer API, and nothing this test cannot send', () => {
    const sent = new Set([
      ...STEP_NAMES.map((step) => `saveStep_${step}`),
      'postPartnerLeads',
      'postBuyerReturns',
      'postBuyerConversions',
    ]);
    expect(new Set(examples.map((example) => example.operationId))).toEqual(sent);
  });

  it("saves each step's example in wizard order on a visitor's lead", async () => {
    const landed = await t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: LANDING });
    expect(landed.statusCode).toBe(201);
    const cookie = cookieOf(landed);
    for (const step of STEP_NAMES) {
      const example = examples.find((e) => e.operationId === `saveStep_${step}`)!;
      const response = await send(example, { cookie });
      expect(response.statusCode, outcome(example, response)).toBe(200);
    }
  });

  it("accepts the partner lead's example (202)", async () => {
    const example = examples.find((e) => e.operationId === 'postPartnerLeads')!;
    const response = await send(example, {
      authorization: `Bearer ${partner.key}`,
      'idempotency-key': 'docs-example-1',
    });
    expect(response.statusCode, outcome(example, response)).toBe(202);
  });

  it("accepts the buyer API's return and conversion of the lead its examples name", async () => {
    const buyerExamples = examples.filter((e) => e.operationId.startsWith('postBuyer'));
    const references = new Set(buyerExamples.map((e) => String(e.body.reference)));
    // The lead the examples name, sold to this buyer yesterday.
    for (const reference of references) {
      await recordEvents(
        db,
        soldLeadEvents(reference, { buyer: 'prime', price: 45, at: new Date(Date.now() - 86_400_000) }),
      );
    }
    for (const example of buyerExamples) {
      const response = await send(example, {
        authorization: `Bearer ${buyer.key}`,
        'idempotency-key': `docs-${example.operationId}`,
      });
      expect(response.statusCode, outcome(example, response)).toBeGreaterThanOrEqual(200);
      expect(response.statusCode, outcome(example, response)).toBeLessThan(300);
    }
  });
});
