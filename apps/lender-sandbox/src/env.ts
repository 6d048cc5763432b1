import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { parseEnv } from '@funnel/server-runtime/parse-env';
import { boolish, LogLevelSchema, serverEnvFields } from '@funnel/server-runtime/env-fields';
import { SandboxConfigSchema, type OutcomeConfig, type SandboxConfig } from './sandbox-config.js';

/** Environment variable of each outcome setting; unset ones take the default of `DEFAULT_OUTCOME_CONFIG`. */
export const OUTCOME_ENV_KEYS = {
  seed: 'SANDBOX_SEED',
  soldShare: 'SANDBOX_SOLD_SHARE',
  pendingShare: 'SANDBOX_PENDING_SHARE',
  pendingMinMs: 'SANDBOX_PENDING_MIN_MS',
  pendingMaxMs: 'SANDBOX_PENDING_MAX_MS',
  latencyMinMs: 'SANDBOX_LATENCY_MIN_MS',
  latencyMaxMs: 'SANDBOX_LATENCY_MAX_MS',
  fault5xxRate: 'SANDBOX_FAULT_5XX_RATE',
  faultTimeoutRate: 'SANDBOX_FAULT_TIMEOUT_RATE',
  faultResetRate: 'SANDBOX_FAULT_RESET_RATE',
  faultMalformedRate: 'SANDBOX_FAULT_MALFORMED_RATE',
  timeoutHoldMs: 'SANDBOX_TIMEOUT_HOLD_MS',
  faultOversizedRate: 'SANDBOX_FAULT_OVERSIZED_RATE',
  oversizedBytes: 'SANDBOX_OVERSIZED_BYTES',
  oversizedChunkIntervalMs: 'SANDBOX_OVERSIZED_CHUNK_INTERVAL_MS',
  soldRedirect: 'SANDBOX_SOLD_REDIRECT',
  rejectRedirect: 'SANDBOX_REJECT_REDIRECT',
  testPendingMs: 'SANDBOX_TEST_PENDING_MS',
  testPendingPings: 'SANDBOX_TEST_PENDING_PINGS',
  litigatorDelayMs: 'SANDBOX_LITIGATOR_DELAY_MS',
} as const satisfies Record<keyof OutcomeConfig, `SANDBOX_${string}`>;

const number = z.coerce.number().optional();

const EnvSchema = z.object({
  SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
  /** Defaults to http://127.0.0.1:{SANDBOX_PORT}. */
  SANDBOX_PUBLIC_URL: z.string().optional(),
  /** `development` (the default) pretty-prints logs at a terminal; anything else keeps JSON lines. */
  NODE_ENV: serverEnvFields.NODE_ENV,
  SANDBOX_LOG_LEVEL: LogLevelSchema.default('info'),
  SANDBOX_MAX_LEADS: number,
  /** A JSON file `{ "buyers": [...] }` of simulated buyers served under /buyers/{id} (issue 13). */
  SANDBOX_BUYERS_FILE: z.string().min(1).optional(),
  /** The product's base URL: simulated buyers with `returns` call its buyer API there (ADR 0020). */
  SANDBOX_RETURNS_URL: z.string().min(1).optional(),
  SANDBOX_SEED: number,
  SANDBOX_SOLD_SHARE: number,
  SANDBOX_PENDING_SHARE: number,
  SANDBOX_PENDING_MIN_MS: number,
  SANDBOX_PENDING_MAX_MS: number,
  SANDBOX_LATENCY_MIN_MS: number,
  SANDBOX_LATENCY_MAX_MS: number,
  SANDBOX_FAULT_5XX_RATE: number,
  SANDBOX_FAULT_TIMEOUT_RATE: number,
  SANDBOX_FAULT_RESET_RATE: number,
  SANDBOX_FAULT_MALFORMED_RATE: number,
  SANDBOX_TIMEOUT_HOLD_MS: number,
  SANDBOX_FAULT_OVERSIZED_RATE: number,
  SANDBOX_OVERSIZED_BYTES: number,
  SANDBOX_OVERSIZED_CHUNK_INTERVAL_MS: number,
  SANDBOX_SOLD_REDIRECT: boolish.optional(),
  SANDBOX_REJECT_REDIRECT: boolish.optional(),
  SANDBOX_TEST_PENDING_MS: number,
  SANDBOX_TEST_PENDING_PINGS: number,
  SANDBOX_LITIGATOR_DELAY_MS: number,
});

export interface Env {
  host: string;
  port: number;
  nodeEnv: 'development' | 'test' | 'production';
  logLevel: string;
  sandbox: SandboxConfig;
}

/** Parses the environment once at start; fails listing every bad key by its variable name. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const env = parseEnv(EnvSchema, source);

  const outcome: Record<string, unknown> = {};
  for (const [setting, key] of Object.entries(OUTCOME_ENV_KEYS)) {
    if (env[key] !== undefined) outcome[setting] = env[key];
  }
  const sandbox = SandboxConfigSchema.safeParse({
    publicUrl: env.SANDBOX_PUBLIC_URL ?? `http://127.0.0.1:${env.SANDBOX_PORT}`,
    maxLeads: env.SANDBOX_MAX_LEADS,
    ...(env.SANDBOX_RETURNS_URL ? { returnsUrl: env.SANDBOX_RETURNS_URL } : {}),
    outcome,
    buyers: env.SANDBOX_BUYERS_FILE ? readBuyersFile(env.SANDBOX_BUYERS_FILE) : [],
  });
  if (!sandbox.success) fail(sandbox.error.issues.map((issue) => [envKeyOf(issue.path), issue.message]));
  return {
    host: env.SANDBOX_HOST,
    port: env.SANDBOX_PORT,
    nodeEnv: env.NODE_ENV,
    logLevel: env.SANDBOX_LOG_LEVEL,
    sandbox: sandbox.data,
  };
}

function envKeyOf(path: readonly PropertyKey[]): string {
  const [group, setting] = path;
  if (group === 'publicUrl') return 'SANDBOX_PUBLIC_URL';
  if (group === 'maxLeads') return 'SANDBOX_MAX_LEADS';
  if (group === 'returnsUrl') return 'SANDBOX_RETURNS_URL';
  if (group === 'buyers') return `SANDBOX_BUYERS_FILE (${path.slice(1).join('.')})`;
  return OUTCOME_ENV_KEYS[setting as keyof OutcomeConfig] ?? 'SANDBOX_*';
}

function readBuyersFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail([
      ['SANDBOX_BUYERS_FILE', `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`],
    ]);
  }
  try {
    return (JSON.parse(text) as { buyers?: unknown }).buyers;
  } catch {
    return fail([['SANDBOX_BUYERS_FILE', 'is not valid JSON']]);
  }
}

/** An empty variable (`SANDBOX_SEED=` in a .env file) means unset, not zero. */

function fail(problems: readonly (readonly [string, string])[]): never {
  throw new Error(
    `Invalid configuration:\n${problems.map(([key, message]) => `  ${key}: ${message}`).join('\n')}`,
  );
}
