// What the zod contracts cannot say in the generated OpenAPI document, added once it is built: field descriptions,
// operation ids and security, examples, response headers, the event stream's media type and events, the outcome
// webhook, a 4xx on every operation, and components named the way a generated client should name its types. The
// request examples are added as the document is served (`addRequestExamples`): some hold dates.
import { FIELD_DESCRIPTIONS } from '@funnel/contracts/field-docs';
import { toClientFields } from '@funnel/contracts/fields';
import { OUTCOME_EVENT } from '@funnel/contracts/lead-outcome';
import { partnerLeadRequestExample } from '@funnel/contracts/partner-api';
import { sampleLeadOn } from '@funnel/contracts/sample-lead';
import { STEP_NAMES, getStep, type StepName } from '@funnel/contracts/steps';

/** The version of the API contract: bump it with every change to the document (CHANGELOG.md). */
export const API_VERSION = '2.9.0';

type Json = Record<string, unknown>;
type Operation = Json & { responses?: Record<string, Json>; requestBody?: Json; operationId?: string };
export interface OpenApiDocument extends Json {
  paths?: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: Json & { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
}

const SCHEMAS = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/** Every response header the API sends that a client acts on. */
const HEADERS = {
  'Idempotent-Replayed': {
    description:
      '`true` when an earlier request with the same `Idempotency-Key` created this lead, return or conversion.',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-RateLimit-Limit': integerHeader('Requests allowed in the current window.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': integerHeader('Seconds until the window resets.'),
  'Retry-After': integerHeader('Seconds to wait before retrying.'),
  'X-Request-Id': {
    description:
      "The request's id: the `X-Request-Id` it was sent with when that is 1 to 128 letters, digits or `-_.:`, " +
      'a new one otherwise. Every error body repeats it (`error.requestId`) and every log line of the request ' +
      'carries it: quote it when reporting a problem.',
    schema: { type: 'string', maxLength: 128 },
  },
};
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** Finishes the document fastify-swagger built from the routes (see the file's first lines). */
export function completeDocument(doc: OpenApiDocument): OpenApiDocument {
  doc.info = { ...(doc.info as Json), version: API_VERSION };
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  for (const { path, method, operation } of operations) {
    completeOperation(path, method, operation);
    addResponseHeaders(operation);
    ensureClientError(operation);
  }
  describeEventStream(doc.paths?.['/api/v1/lead/events']?.get);
  doc.webhooks = { leadOutcome: { post: OUTCOME_WEBHOOK } };
  doc.components = { ...doc.components, headers: HEADERS };
  describeLeadFields(doc);
  nameComponents(doc);
  return doc;
}

/**
 * Says of an operation who may call it (the lead's session cookie, a bearer key, or anyone) and gives it an
 * operation id (`getLookupZipByZip`) unless its route names one.
 */
function completeOperation(path: string, method: string, operation: Operation): void {
  if (operation.security === undefined) {
    const needsSession = path.startsWith('/api/v1/lead/') || (path === '/api/v1/lead' && method === 'get');
    operation.security = needsSession ? [{ leadSession: [] }] : [];
  }
  operation.operationId ??= operationIdOf(method, path);
}

function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[-_.]/))
    .filter(Boolean);
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** The sample lead's answer to `name` as a client sends it (`answers` in client names): the step's example. */
function stepExample(name: StepName, answers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(getStep(name).schema.shape)
      .filter((field) => answers[field] !== undefined)
      .map((field) => [field, answers[field]]),
  );
}

const STEP_OPERATIONS = new Map(STEP_NAMES.map((name) => [`saveStep_${name}`, name]));

/** The buyer API's examples: a return of the lead `ReferenceID` named, and a funded conversion. */
const BUYER_EXAMPLES: Record<string, { summary: string; value: Json }> = {
  postBuyerReturns: {
    summary: 'The phone number does not reach the borrower',
    value: {
      reference: 'k3J9xQ2mVb7TzR1pL8wN4A',
      reason: 'invalid_contact',
      note: 'Number disconnected, 3 tries',
    },
  },
  postBuyerConversions: {
    summary: 'The loan was funded',
    value: { reference: 'k3J9xQ2mVb7TzR1pL8wN4A', funded: true, amount: 1500 },
  },
};

/**
 * Puts the request examples on the media types (an input schema drops zod's `examples`), built for `todayIso`
 * ('YYYY-MM-DD', business time zone): a pay date or a consent time is valid for a few weeks only, so an example
 * frozen when the document was written is refused once the calendar passes it (issue 40). Applied to each
 * served copy of the document.
 */
export function addRequestExamples(doc: OpenApiDocument, todayIso: string): OpenApiDocument {
  const answers = toClientFields(sampleLeadOn(todayIso)) as Record<string, unknown>;
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const media = (operation.requestBody?.content as Record<string, Json> | undefined)?.[
        'application/json'
      ];
      const id = operation.operationId ?? '';
      const step = STEP_OPERATIONS.get(id);
      if (!media) continue;
      if (step)
        media.examples = { sample: { summary: 'The sample lead', value: stepExample(step, answers) } };
      if (id === 'postPartnerLeads') {
        media.examples = {
          sampleLead: { summary: 'A complete lead', value: partnerLeadRequestExample(todayIso) },
        };
      }
      const buyerExample = BUYER_EXAMPLES[id];
      if (buyerExample) media.examples = { sample: buyerExample };
    }
  }
  return doc;
}

/** Operations whose repeat with the same `Idempotency-Key` answers what the first created. */
const REPLAYABLE = new Set(['postPartnerLeads', 'postBuyerReturns', 'postBuyerConversions']);

/**
 * `X-Request-Id` on every answer, rate-limit headers where a 429 can come, `Retry-After` on 429 and 503,
 * `Idempotent-Replayed` on a replay.
 */
function addResponseHeaders(operation: Operation): void {
  const responses = operation.responses ?? {};
  const limited = '429' in responses;
  for (const [status, response] of Object.entries(responses)) {
    const headers: Record<string, unknown> = {
      ...(response.headers as Json | undefined),
      'X-Request-Id': headerRef('X-Request-Id'),
    };
    if (limited && (status.startsWith('2') || status === '429')) {
      for (const name of RATE_LIMIT_HEADERS) headers[name] = headerRef(name);
    }
    if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
    if (REPLAYABLE.has(operation.operationId ?? '') && (status === '202' || status === '200')) {
      headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
    }
    response.headers = headers;
  }
}

/**
 * Every operation can be refused as malformed (a URL that does not decode, no `Host` header): say so where the
 * routes document no client error of their own.
 */
function ensureClientError(operation: Operation): void {
  const responses = (operation.responses ??= {});
  if (Object.keys(responses).some((status) => status.startsWith('4'))) return;
  responses['400'] = {
    description: 'The request is malformed (a URL that does not decode, no Host header).',
    content: json(ref('ApiError')),
  };
}

/** The outcome stream is `text/event-stream`, not JSON: its media type, its events and an example. */
function describeEventStream(operation: Operation | undefined): void {
  const ok = operation?.responses?.['200'];
  if (!ok) return;
  ok.description =
    `An event stream. Each \`${OUTCOME_EVENT}\` event carries the lead's outcome (\`LeadOutcome\`) as JSON in ` +
    'its data, with its sequence number as the event id; comment lines (`: ping`) keep the connection alive.';
  ok.content = {
    'text/event-stream': {
      schema: {
        type: 'string',
        description: `Server-sent events: \`id: <seq>\`, \`event: ${OUTCOME_EVENT}\`, \`data: <LeadOutcome JSON>\`.`,
      },
      example:
        `id: 1\nevent: ${OUTCOME_EVENT}\ndata: {"outcome":"pending","seq":1,"at":"2026-11-25T14:03:00.000Z"}\n\n` +
        `id: 2\nevent: ${OUTCOME_EVENT}\ndata: {"outcome":"sold","redirectUrl":"https://lender.example/offer/5f2c",` +
        '"seq":2,"at":"2026-11-25T14:03:07.412Z"}\n\n',
      'x-events': { [OUTCOME_EVENT]: ref('LeadOutcome') },
    },
  };
}

const webhookHeader = (name: string, description: string, deprecated = false) => ({
  name,
  in: 'header',
  required: true,
  ...(deprecated ? { deprecated } : {}),
  description,
  schema: { type: 'string' },
});

/** The outcome webhook we POST to a partner's `webhookUrl`, signed the Standard Webhooks way. */
const OUTCOME_WEBHOOK: Operation = {
  operationId: 'leadOutcomeWebhook',
  summary: "A partner lead's final outcome",
  description:
    'POSTed to the `webhookUrl` of a lead posted through the partner API once its outcome is final. No ' +
    'personal data: match it by `leadId`. Signed as Standard Webhooks (https://www.standardwebhooks.com): ' +
    'verify it with any Standard Webhooks library and the `whsec_` secret we issued. Delivered at least once: ' +
    'a repeated `webhook-id` is the same event.',
  tags: ['partner-api'],
  security: [],
  parameters: [
    webhookHeader('webhook-id', 'The event id, `msg_<leadId>`: the same on every retry.'),
    webhookHeader('webhook-timestamp', 'Unix seconds of this attempt; refuse one more than 5 minutes off.'),
    webhookHeader(
      'webhook-signature',
      '`v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<raw body>")>`, one per secret, space-separated.',
    ),
    webhookHeader(
      'X-Funnel-Signature',
      'Deprecated, sent until 2027-06-01: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.',
      true,
    ),
  ],
  requestBody: { required: true, content: json(ref('PartnerWebhookPayload')) },
  responses: {
    '2XX': { description: 'Delivered: nothing more is sent for this event.' },
    '4XX': {
      description: 'Refused: retried with exponential backoff, 8 attempts over about 21 minutes.',
    },
  },
};

/**
 * Gives every schema property named after a lead field the field's description (`field-docs.ts`), wherever it
 * appears: the step bodies, the partner API, the lead summary. A description the schema has wins.
 */
function describeLeadFields(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) describeLeadFields(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const properties = (node as { properties?: unknown }).properties;
  if (properties && typeof properties === 'object') {
    for (const [name, schema] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
      const description = FIELD_DESCRIPTIONS[name as keyof typeof FIELD_DESCRIPTIONS];
      if (description && schema && typeof schema === 'object' && schema.description === undefined) {
        schema.description = description;
      }
    }
  }
  for (const value of Object.values(node)) describeLeadFields(value);
}

/** Every `$ref` to a schema under `node`. */
function schemaRefs(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => schemaRefs(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMAS)) {
        found.add(value.slice(SCHEMAS.length));
      } else schemaRefs(value, found);
    }
  }
  return found;
}

function renameRefs(node: unknown, names: ReadonlyMap<string, string>): void {
  if (Array.isArray(node)) node.forEach((item) => renameRefs(item, names));
  else if (node && typeof node === 'object') {
    const record = node as Json;
    for (const [key, value] of Object.entries(record)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMAS)) {
        const renamed = names.get(value.slice(SCHEMAS.length));
        if (renamed) record[key] = `${SCHEMAS}${renamed}`;
      } else renameRefs(value, names);
    }
  }
}

/**
 * Keeps the named schemas the document uses and names them as a client should: the provider emits an input
 * (`FooInput`) and an output (`Foo`) component for every schema with an id; a schema only ever sent keeps its
 * plain name. Unused components would be warnings to Redocly and noise in a generated client.
 */
function nameComponents(doc: OpenApiDocument): void {
  const schemas = doc.components?.schemas ?? {};
  const { components: _components, ...rest } = doc;
  const used = schemaRefs(rest, new Set());
  const pending = [...used];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const inner of schemaRefs(schemas[name], new Set())) {
      if (!used.has(inner)) {
        used.add(inner);
        pending.push(inner);
      }
    }
  }
  const renames = new Map<string, string>();
  for (const name of used) {
    const plain = name.endsWith('Input') ? name.slice(0, -'Input'.length) : undefined;
    if (plain && !used.has(plain)) renames.set(name, plain);
  }
  const kept: Record<string, unknown> = {};
  const named = [...used].map((name) => [renames.get(name) ?? name, schemas[name]] as const);
  for (const [name, schema] of named.sort(([a], [b]) => (a < b ? -1 : 1))) kept[name] = schema;
  renameRefs(doc, renames);
  renameRefs(kept, renames);
  doc.components = { ...doc.components, schemas: kept };
}
