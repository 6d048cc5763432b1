import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_NAMES, stepSchemaId } from '@funnel/contracts/steps';
import { startTestApp, type TestApp } from './test-app.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The document as last released, beside its version (`info.version`). */
const SNAPSHOT = path.join(root, 'apps/bff/test/__snapshots__/openapi.json');
const UPDATE = process.env.UPDATE_API_SNAPSHOT === '1';
/** The snapshot is of the document as served on this day: its request examples are built for the day they are read. */
const SERVED_ON = new Date('2026-11-27T15:00:00.000Z');

interface Document {
  info: { version: string };
  components: { schemas: Record<string, unknown> };
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(path.join(root, 'node_modules/.bin', command), args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The integrators' contract (issue 23): versioned, and good enough to generate a typed client from. */
describe('the API contract', () => {
  let t: TestApp;
  let doc: Document;
  const dir = mkdtempSync(path.join(tmpdir(), 'api-contract-'));

  beforeAll(async () => {
    t = await startTestApp({
      now: () => SERVED_ON,
      env: { ADMIN_API_TOKEN: 'x'.repeat(32), PARTNER_WEBHOOK_INSECURE: 'false' },
    });
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('changes only with a version bump: the document equals its snapshot, or info.version moved on', () => {
    const snapshot = existsSync(SNAPSHOT)
      ? (JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Document)
      : undefined;
    if (snapshot && isDeepStrictEqual(doc, snapshot)) return;
    if (snapshot && snapshot.info.version === doc.info.version) {
      expect.fail(
        `The API document changed but info.version is still ${doc.info.version}: bump API_VERSION ` +
          '(apps/bff/src/plugins/openapi-document.ts), say what changed in CHANGELOG.md, then run this test ' +
          'with UPDATE_API_SNAPSHOT=1.',
      );
    }
    // A new version must be in the changelog before its snapshot is taken.
    expect(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8')).toContain(`## ${doc.info.version} `);
    if (!UPDATE) {
      expect.fail(`info.version is now ${doc.info.version}: run with UPDATE_API_SNAPSHOT=1 to record it.`);
    }
    writeFileSync(SNAPSHOT, `${JSON.stringify(doc, null, 2)}\n`);
  });

  it('names its shared schemas: the error, the lead summary, each step body, the partner lead', () => {
    const named = Object.keys(doc.components.schemas);
    expect(named).toEqual(
      expect.arrayContaining([
        'ApiError',
        'LeadSummary',
        'PartnerLeadRequest',
        'PartnerLeadAccepted',
        'PartnerLeadStatus',
        'PartnerWebhookPayload',
        ...STEP_NAMES.map(stepSchemaId),
      ]),
    );
    // The error shape is defined once and referenced, never inlined again.
    expect(JSON.stringify(doc).match(/"code":\{"\$ref"/g)).toHaveLength(1);
  });

  it('generates a TypeScript client (openapi-typescript) that compiles a typed partner-lead call', () => {
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    const generated = run('openapi-typescript', ['openapi.json', '--output', 'api.d.ts'], dir);
    expect(generated.status, generated.output).toBe(0);
    const stepTypes = STEP_NAMES.map(
      (name) => `type ${stepSchemaId(name)} = components['schemas']['${stepSchemaId(name)}'];`,
    );
    writeFileSync(
      path.join(dir, 'client.ts'),
      [
        "import type { components, paths } from './api';",
        '',
        "type ApiError = components['schemas']['ApiError'];",
        "type LeadSummary = components['schemas']['LeadSummary'];",
        "type PartnerLead = components['schemas']['PartnerLeadRequest'];",
        "type PartnerLeadAccepted = components['schemas']['PartnerLeadAccepted'];",
        "type PartnerLeadStatus = components['schemas']['PartnerLeadStatus'];",
        "type StatusAnswer = paths['/api/v1/partner/leads/{id}']['get']['responses'][200]['content']['application/json'];",
        ...stepTypes,
        '',
        'export async function createPartnerLead(base: string, key: string, lead: PartnerLead): Promise<string> {',
        "  const response = await fetch(`${base}/api/v1/partner/leads`, { method: 'POST',",
        "    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(lead) });",
        '  if (!response.ok) { const { error }: ApiError = await response.json(); throw new Error(`${error.code}: ${error.message}`); }',
        '  const accepted: PartnerLeadAccepted = await response.json();',
        '  return accepted.leadId;',
        '}',
        '',
        'export async function partnerLeadStatus(base: string, key: string, leadId: string): Promise<PartnerLeadStatus> {',
        '  const response = await fetch(`${base}/api/v1/partner/leads/${leadId}`, { headers: { authorization: `Bearer ${key}` } });',
        '  const status: StatusAnswer = await response.json();',
        "  if (status.outcome === 'sold') console.log(status.redirectUrl?.toUpperCase());",
        '  return status;',
        '}',
        '',
        "export const lgname: LgnameStep = { firstName: 'Maria', lastName: 'Garcia' };",
        '// The types are real: a wrong field or value does not compile.',
        "// @ts-expect-error 'sold-out' is no outcome",
        "export const wrongOutcome: PartnerLeadStatus = { leadId: 'x', outcome: 'sold-out' };",
        '// @ts-expect-error an ApiError has a code',
        "export const noCode: ApiError = { error: { message: 'x' } };",
        'export const summary = (lead: LeadSummary) => lead.nextStep;',
        `export type AllSteps = [${STEP_NAMES.map(stepSchemaId).join(', ')}];`,
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ES2022',
          moduleResolution: 'bundler',
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['client.ts'],
      }),
    );
    // The native compiler the project type-checks with: the JavaScript one took over a minute on a loaded machine.
    const compiled = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript-7/bin/tsc'), '-p', 'tsconfig.json'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(compiled.status, `${compiled.stdout}${compiled.stderr}`).toBe(0);
  }, 120_000);
});
