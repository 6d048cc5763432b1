// How every fault scenario starts its lender sandbox, BFF and workers, with one run's fresh secrets: built for
// production, on the loopback, quiet but for warnings. A scenario passes its ports (so a process it kills can come
// back on the same one), how they reach Redis, and what it adds.
import { randomBytes } from 'node:crypto';
import { FICTITIOUS_BRAND_SETTINGS } from '@funnel/testing/brand-settings';
import { testEnv } from '@funnel/testing/env';
import { startApp, type AppProcess } from '@funnel/testing/processes';

/** Where a process of the run answers. */
export const loopbackUrl = (port: number) => `http://127.0.0.1:${port}`;

/** How long a process may take to start before the scenario fails: a loaded CI run is several times slower. */
const START_TIMEOUT_MS = 60_000;

/** The lender sandbox on `port`, answering each call in `latencyMs` (low, high) unless `env` says otherwise. */
export function startFaultSandbox(options: {
  port: number;
  latencyMs?: [number, number];
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<AppProcess> {
  const url = loopbackUrl(options.port);
  const latency = options.latencyMs && {
    SANDBOX_LATENCY_MIN_MS: String(options.latencyMs[0]),
    SANDBOX_LATENCY_MAX_MS: String(options.latencyMs[1]),
  };
  return startApp({
    entry: 'apps/lender-sandbox/src/server.ts',
    env: {
      SANDBOX_PORT: String(options.port),
      SANDBOX_PUBLIC_URL: url,
      SANDBOX_LOG_LEVEL: 'warn',
      ...latency,
      ...options.env,
    },
    readyUrl: `${url}/healthz`,
    timeoutMs: options.timeoutMs ?? START_TIMEOUT_MS,
  });
}

/** Sets how the sandbox at `url` answers the leads it is posted next (its `/_sandbox/config`). */
export async function configureSandbox(url: string, patch: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${url}/_sandbox/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (!response.ok) throw new Error(`sandbox config: ${await response.text()}`);
}

/** The BFF on `options.port`, with {@link faultBffEnv}'s environment. */
export function startFaultBff(options: FaultBffOptions & { timeoutMs?: number }): Promise<AppProcess> {
  return startApp({
    entry: 'apps/bff/src/server.ts',
    env: faultBffEnv(options),
    readyUrl: `${loopbackUrl(options.port)}/readyz`,
    timeoutMs: options.timeoutMs ?? START_TIMEOUT_MS,
  });
}

/**
 * A worker offering leads to the sandbox at `sandboxUrl` (or the buyers `env` names), its metrics on `metricsPort`,
 * reconciling every 2 s with 10 s of grace past a lead's deadline; `env` adds what the scenario needs.
 */
export function startFaultWorker(options: {
  metricsPort: number;
  redis: Record<string, string>;
  sandboxUrl: string;
  secrets: Record<string, string>;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<AppProcess> {
  return startApp({
    entry: 'apps/worker/src/main.ts',
    env: {
      LOG_LEVEL: 'warn',
      ...options.redis,
      LENDER_NETWORK_URL: options.sandboxUrl,
      WORKER_METRICS_PORT: String(options.metricsPort),
      RECONCILE_INTERVAL_MS: '2000',
      RECONCILE_DEADLINE_GRACE_MS: '10000',
      ...options.env,
      ...options.secrets,
    },
    readyUrl: `${loopbackUrl(options.metricsPort)}/readyz`,
    timeoutMs: options.timeoutMs ?? START_TIMEOUT_MS,
  });
}

interface FaultBffOptions {
  port: number;
  redis: Record<string, string>;
  partnerKeyEntry: string;
  deadlineMs: number;
  secrets: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * The BFF as a scenario runs it: built for production, on the loopback at `port`, its rate limits out of the way,
 * the scenario's partner key and decision deadline. `redis` is how it reaches Redis (URL and key prefix, or the
 * Sentinel settings), `env` what the scenario adds; the run's secrets come last.
 */
function faultBffEnv(options: FaultBffOptions): Record<string, string> {
  return {
    NODE_ENV: 'production',
    ...FICTITIOUS_BRAND_SETTINGS,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    ...options.redis,
    ...options.env,
    REFERENCE_DATA_DIR: testEnv.referenceDataDir,
    COOKIE_SECURE: 'false',
    RATE_LIMIT_MAX: '1000000000',
    PARTNER_API_KEYS: options.partnerKeyEntry,
    DECISION_DEADLINE_MS: String(options.deadlineMs),
    ...options.secrets,
  };
}

/** Fresh secrets for one scenario's run, its encryption key named `keyId`; the workers get the same. */
export function faultSecrets(keyId: string): Record<string, string> {
  return {
    FIELD_ENCRYPTION_KEYS: `${keyId}:${randomBytes(32).toString('base64')}`,
    COOKIE_SECRETS: randomBytes(32).toString('hex'),
    SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
  };
}
