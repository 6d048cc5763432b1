import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { partnerKey } from './partner-keys.js';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { SESSION_COOKIE } from '../src/plugins/lead-session.js';
import { FUNNEL_NOW, STEP_ANSWERS, cookieOf } from './funnel-answers.js';
import { sendRaw } from './raw-http.js';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * The fuzz suite (issue 12): every operation of the OpenAPI document, at least 100 requests each, with path
 * parameters, query strings, bodies and headers drawn from the operation's own schemas, valid, at their
 * boundaries, and hostile, sent as JSON or as another content type. Asserts no 5xx, every 4xx in the one error
 * shape and echoing nothing it was sent, a body of any other type answered 415 (never read), and the server
 * healthy afterwards; prints the counts per operation. Then every operation again over a socket without a Host
 * header (issue 23): 400 in the error shape.
 */

const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 100);
/** Planted in every hostile value: a 4xx answer containing it echoed the request back. */
const MARKER = 'ZqxEcho';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  examples?: unknown[];
  additionalProperties?: boolean | JsonSchema;
};

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  body?: JsonSchema;
  security: string[];
}

/** Content types of a body no route reads: each must answer 415 UNSUPPORTED_MEDIA_TYPE. */
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/html',
  'application/octet-stream',
];

/** Strings no handler should trust: control and bidi characters, encodings, traversal, markup, huge. */
const hostileString = fc.oneof(
  fc.constantFrom(
    `\u0000\u0007\u001b[31m${MARKER}\u202Eevil`,
    `${MARKER}%ff%fe`,
    `../../${MARKER}/etc/passwd`,
    `<script>${MARKER}</script>`,
    `${MARKER}\ud83d`,
    `' OR 1=1 -- ${MARKER}`,
    `${MARKER}${'é'.repeat(300)}`,
    `{"$gt":"${MARKER}"}`,
    `${MARKER}\r\nSet-Cookie: x=1`,
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `${MARKER}${s}`),
  fc.integer({ min: 101, max: 20_000 }).map((n) => MARKER + 'x'.repeat(n)),
);

/** A value of `schema`'s type and within its bounds, or at them. */
function valid(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 5) return fc.constant(null);
  if (schema.examples && schema.examples.length > 0) {
    return fc.oneof(fc.constantFrom(...schema.examples), generated(schema, depth));
  }
  return generated(schema, depth);
}

function generated(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices && choices.length > 0) return fc.oneof(...choices.map((s) => valid(s, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return valid(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const shape = Object.fromEntries(
        Object.entries(properties).map(([name, sub]) => [name, valid(sub, depth + 1)]),
      );
      return fc.record(shape, {
        requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
      });
    }
    case 'array':
      return fc.array(valid(schema.items, depth + 1), { maxLength: 4 });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, 200);
      if (schema.format === 'date') return fc.constantFrom('1988-04-09', '2026-11-27', '2000-02-29');
      if (schema.format === 'date-time') return fc.constantFrom('2026-11-17T14:58:00Z');
      if (schema.format === 'email') return fc.constantFrom('maria.garcia@example.com');
      if (schema.format === 'uri') return fc.constantFrom('https://example.com/a');
      if (schema.pattern) {
        // Strings the pattern accepts, so valid requests get past it and reach the handler.
        return fc.stringMatching(new RegExp(schema.pattern)).filter((v) => v.length <= 200);
      }
      return fc.oneof(
        fc.string({ minLength: min, maxLength: Math.max(min, max) }),
        fc.constantFrom('x'.repeat(Math.max(min, max)), 'x'.repeat(max + 1)),
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A body for `schema`: valid, valid with one field broken, or anything JSON can hold. */
function bodyFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const base = valid(schema);
  const broken = fc
    .tuple(base, hostileString, fc.oneof(hostileString, fc.jsonValue({ maxDepth: 2 })))
    .map(([value, key, replacement]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
      const keys = Object.keys(value);
      const target = keys.length > 0 ? keys[key.length % keys.length]! : key;
      return { ...value, [target]: replacement };
    });
  return fc.oneof(base, base, broken, fc.jsonValue({ maxDepth: 3 }), hostileString);
}

interface ApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, unknown> };
}

/** The document with every `$ref` to a named schema replaced by the schema, so bodies are drawn from it. */
function dereferenced(doc: ApiDocument): ApiDocument {
  const schemas = doc.components?.schemas ?? {};
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (!node || typeof node !== 'object') return node;
    const { $ref } = node as { $ref?: unknown };
    if (typeof $ref === 'string' && $ref.startsWith('#/components/schemas/')) {
      return resolve(schemas[$ref.slice('#/components/schemas/'.length)]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
  };
  return { ...doc, paths: resolve(doc.paths) as ApiDocument['paths'] };
}

/**
 * `value` as a path segment. A lone surrogate has no UTF-8 form: it is sent as the bytes a careless client would
 * send for it (an invalid UTF-8 sequence), which the server must refuse cleanly.
 */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `%ED%A0%BD${encodeURIComponent(value.replace(/\p{Cs}/gu, '\uFFFD'))}`;
  }
}

describe('fuzz: every operation of the API document', () => {
  let t: TestApp;
  const operations: Operation[] = [];
  let cookie = '';
  const partner = partnerKey('fuzz', 'aff-fuzz', 100_000);
  const adminToken = randomBytes(24).toString('hex');

  // A system of record of its own, so the reports and the privacy-request log answer from PostgreSQL.
  const schema = testSchema('bfffuzz');
  let db: Kysely<Database>;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        PARTNER_API_KEYS: partner.entry,
        ADMIN_API_TOKEN: adminToken,
        RATE_LIMIT_ENABLED: 'false',
      },
    });
    const doc = dereferenced(
      (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as ApiDocument,
    );
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)
          ?.content;
        operations.push({
          method: method.toUpperCase(),
          path,
          parameters: (op.parameters as Operation['parameters'] | undefined) ?? [],
          body: content?.['application/json']?.schema,
          security: ((op.security as Array<Record<string, unknown>> | undefined) ?? []).flatMap(Object.keys),
        });
      }
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'OTHER', zipCode: '10001' },
    });
    cookie = cookieOf(created);
    // Half the lead answered, so step saves and reads meet a lead with some answers on file.
    for (const [step, answer] of STEP_ANSWERS.slice(0, 12)) {
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/lead/steps/${step}`,
        payload: answer,
        headers: { cookie },
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    await db?.destroy();
    await dropSchema(schema);
  });

  it('answers every operation without a 5xx, in the error shape, echoing nothing', async () => {
    expect(operations.length).toBeGreaterThan(20);
    const table: string[] = [];
    const failures: string[] = [];
    for (const op of operations) {
      const counts = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
      const pathParams = op.parameters.filter((p) => p.in === 'path');
      const queryParams = op.parameters.filter((p) => p.in === 'query');
      const request = fc.record({
        path: fc.tuple(...pathParams.map((p) => fc.oneof(valid(p.schema), hostileString))),
        query: fc.tuple(
          ...queryParams.map((p) => fc.option(fc.oneof(valid(p.schema), hostileString), { nil: undefined })),
        ),
        body: bodyFor(op.body),
        // A valid session on the event stream opens a stream that never ends (its HEAD is tested elsewhere);
        // on Start over it would erase the shared draft, and every later operation would meet no lead.
        session:
          op.path.endsWith('/events') || (op.method === 'DELETE' && op.path === '/api/v1/lead')
            ? fc.constantFrom('none', 'forged')
            : fc.constantFrom('valid', 'none', 'forged'),
        auth: fc.constantFrom('right', 'none', 'wrong'),
        // Mostly JSON, so valid bodies reach the handlers; a quarter of another type, each answered 415.
        contentType: fc.oneof(
          { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 3 },
          { arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES), weight: 1 },
        ),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let url = op.path;
          pathParams.forEach((p, i) => {
            url = url.replace(`{${p.name}}`, pathSegment(String(r.path[i] ?? '')));
          });
          const query = new URLSearchParams();
          queryParams.forEach((p, i) => {
            const value = r.query[i];
            if (value !== undefined)
              query.set(p.name, typeof value === 'string' ? value : JSON.stringify(value));
          });
          if (query.size > 0) url += `?${query}`;
          const headers: Record<string, string> = {};
          if (r.session === 'valid') headers.cookie = cookie;
          if (r.session === 'forged') headers.cookie = `${SESSION_COOKIE}=${MARKER}.forged`;
          const scheme = op.security[0];
          if (scheme && r.auth !== 'none') {
            const secret = scheme === 'adminToken' ? adminToken : partner.key;
            headers.authorization = `Bearer ${r.auth === 'right' ? secret : MARKER}`;
            if (op.method === 'POST') headers['idempotency-key'] = randomBytes(8).toString('hex');
          }
          const hasBody = op.method !== 'GET' && op.method !== 'HEAD' && op.method !== 'DELETE';
          if (hasBody) headers['content-type'] = r.contentType;
          const response = await t.app.inject({
            method: op.method as 'GET',
            url,
            headers,
            ...(hasBody
              ? {
                  payload:
                    r.contentType === 'application/json'
                      ? JSON.stringify(r.body)
                      : `${MARKER}=${JSON.stringify(r.body)}`,
                }
              : {}),
          });
          const status = response.statusCode;
          counts[`${Math.floor(status / 100)}xx` as keyof typeof counts] += 1;
          // A body that is not JSON is never read: refused before or at parsing (401/404 come first, and a
          // hostile path parameter's URL, too long or not decodable, is refused before anything else).
          const refusedUrl =
            status === 414 || (status === 400 && /request URL is not valid/.test(response.body));
          // A cookie-carrying operator request that is not JSON is what a forged form sends: the cross-site guard
          // refuses it (403) before its body is read (ADR 0025).
          const crossSiteGuarded =
            status === 403 && op.path.startsWith('/api/v1/admin/') && headers.cookie !== undefined;
          if (
            hasBody &&
            !r.contentType.startsWith('application/json') &&
            ![401, 404, 415].includes(status) &&
            !refusedUrl &&
            !crossSiteGuarded
          ) {
            failures.push(`${op.method} ${op.path} → ${status} for a ${r.contentType} body (expected 415)`);
          }
          if (status >= 500) {
            failures.push(`${op.method} ${op.path} → ${status} for ${url}: ${response.body.slice(0, 200)}`);
          } else if (status >= 400) {
            const shaped = ApiErrorSchema.safeParse(response.json());
            if (!shaped.success) failures.push(`${op.method} ${op.path} → ${status} not in the error shape`);
            if (response.body.includes(MARKER)) {
              failures.push(
                `${op.method} ${op.path} → ${status} echoed the request: ${response.body.slice(0, 200)}`,
              );
            }
          }
        }),
        { numRuns: RUNS_PER_OPERATION, seed: Number(process.env.FUZZ_SEED ?? 20261124) },
      );
      table.push(
        `${`${op.method} ${op.path}`.padEnd(48)} ${String(RUNS_PER_OPERATION).padStart(5)} ` +
          `${String(counts['2xx']).padStart(5)} ${String(counts['4xx']).padStart(5)} ${String(counts['5xx']).padStart(5)}`,
      );
    }
    process.stdout.write(
      `fuzz: ${operations.length} operations, ${RUNS_PER_OPERATION} requests each\n` +
        `${'operation'.padEnd(48)} ${'sent'.padStart(5)} ${'2xx'.padStart(5)} ${'4xx'.padStart(5)} ${'5xx'.padStart(5)}\n` +
        `${table.join('\n')}\n`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
  }, 300_000);

  it('answers every operation sent without a Host header with 400 in the error shape', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const failures: string[] = [];
    for (const op of operations) {
      const url = op.path.replace(/\{[^}]+\}/g, MARKER);
      const hasBody = op.method !== 'GET' && op.method !== 'HEAD' && op.method !== 'DELETE';
      const body = hasBody ? '{}' : '';
      const head =
        `${op.method} ${url} HTTP/1.1\r\nCookie: ${cookie}\r\nAuthorization: Bearer ${partner.key}\r\n` +
        (hasBody ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '') +
        'Connection: close\r\n\r\n';
      const answer = await sendRaw(port, head + body);
      const shaped =
        op.method === 'HEAD' || ApiErrorSchema.safeParse(JSON.parse(answer.body || 'null')).success;
      if (answer.status !== 400 || !shaped || answer.body.includes(MARKER)) {
        failures.push(`${op.method} ${op.path} without Host → ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
