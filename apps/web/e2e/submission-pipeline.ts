// The rest of the submission pipeline for browser tests that follow a lead past the submit button: the lender
// sandbox (a real server speaking the network's protocol, serving its own lender pages) and the worker, both built
// apps started through `harness.start`, sharing the harness's Redis prefix and secrets.
import assert from 'node:assert/strict';
import { SandboxStatsSchema, type SandboxStats } from '@funnel/contracts/lender-sandbox';
import { freePort, type Harness, type ManagedProcess } from './harness';

/** The outcome settings of PUT /_sandbox/config that browser tests use (the sandbox accepts any subset). */
export interface SandboxOutcomeSettings {
  soldShare?: number;
  pendingShare?: number;
  pendingMinMs?: number;
  pendingMaxMs?: number;
  soldRedirect?: boolean;
  rejectRedirect?: boolean;
}

export interface LenderSandbox {
  /** Its base URL; the sold and reject addresses it hands out start with it. */
  url: string;
  /** Changes how leads posted from now on are decided. */
  configure(settings: SandboxOutcomeSettings): Promise<void>;
  stats(): Promise<SandboxStats>;
}

/** Starts the lender sandbox on a free port, answering without latency. */
export async function startLenderSandbox(harness: Harness): Promise<LenderSandbox> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await harness.start({
    name: 'lender-sandbox',
    entry: 'apps/lender-sandbox/dist/server.js',
    readyUrl: `${url}/healthz`,
    env: {
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_PORT: String(port),
      SANDBOX_PUBLIC_URL: url,
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_LATENCY_MIN_MS: '0',
      SANDBOX_LATENCY_MAX_MS: '0',
    },
  });
  return {
    url,
    async configure(settings) {
      const response = await fetch(`${url}/_sandbox/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(settings),
      });
      assert.equal(response.status, 200, `sandbox config: ${await response.text()}`);
    },
    async stats() {
      const response = await fetch(`${url}/_sandbox/stats`);
      assert.equal(response.status, 200);
      return SandboxStatsSchema.parse(await response.json());
    },
  };
}

/**
 * Starts the worker against `sandbox`, polling every 200 ms so pending leads resolve within a test's patience.
 * `env` adds worker settings (e.g. `PARTNER_OFFER_HOSTS`).
 */
export function startWorker(
  harness: Harness,
  sandbox: Pick<LenderSandbox, 'url'>,
  env: Record<string, string> = {},
): Promise<ManagedProcess> {
  const { config } = harness;
  return harness.start({
    name: 'worker',
    entry: 'apps/worker/dist/main.js',
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      REDIS_URL: config.redisUrl,
      REDIS_KEY_PREFIX: config.keyPrefix,
      FIELD_ENCRYPTION_KEYS: config.fieldEncryptionKeys,
      SUPPRESSION_HASH_SECRET: config.suppressionHashSecret,
      LENDER_NETWORK_URL: sandbox.url,
      POLL_INTERVAL_MS: '200',
      ...env,
    },
  });
}
