import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';
import { DEFAULT_OUTCOME_CONFIG } from './sandbox-config.js';

describe('loadEnv', () => {
  it('defaults to a local sandbox on 127.0.0.1:4010 with the default outcomes', () => {
    expect(loadEnv({})).toEqual({
      host: '127.0.0.1',
      port: 4010,
      nodeEnv: 'development',
      logLevel: 'info',
      sandbox: {
        publicUrl: 'http://127.0.0.1:4010',
        litigatorApiKey: 'sandbox-litigator-key',
        maxLeads: 100_000,
        outcome: DEFAULT_OUTCOME_CONFIG,
        buyers: [],
      },
    });
  });

  it('reads every setting, treating empty variables as unset', () => {
    const env = loadEnv({
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_PORT: '4999',
      SANDBOX_PUBLIC_URL: 'https://sandbox.example.com/',
      NODE_ENV: 'production',
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_MAX_LEADS: '500',
      SANDBOX_SEED: '77',
      SANDBOX_SOLD_SHARE: '0.25',
      SANDBOX_PENDING_SHARE: '1',
      SANDBOX_PENDING_MIN_MS: '10',
      SANDBOX_PENDING_MAX_MS: '20',
      SANDBOX_LATENCY_MIN_MS: '0',
      SANDBOX_LATENCY_MAX_MS: '5',
      SANDBOX_FAULT_5XX_RATE: '0.1',
      SANDBOX_FAULT_TIMEOUT_RATE: '0.05',
      SANDBOX_FAULT_RESET_RATE: '0.05',
      SANDBOX_FAULT_MALFORMED_RATE: '0.05',
      SANDBOX_TIMEOUT_HOLD_MS: '30000',
      SANDBOX_FAULT_OVERSIZED_RATE: '0.02',
      SANDBOX_OVERSIZED_BYTES: '2000000',
      SANDBOX_OVERSIZED_CHUNK_INTERVAL_MS: '5',
      SANDBOX_SOLD_REDIRECT: '0',
      SANDBOX_REJECT_REDIRECT: 'false',
      SANDBOX_TEST_PENDING_MS: '',
      SANDBOX_TEST_PENDING_PINGS: '3',
      SANDBOX_LITIGATOR_DELAY_MS: '250',
    });
    expect(env).toEqual({
      host: '0.0.0.0',
      port: 4999,
      nodeEnv: 'production',
      logLevel: 'warn',
      sandbox: {
        publicUrl: 'https://sandbox.example.com',
        litigatorApiKey: 'sandbox-litigator-key',
        maxLeads: 500,
        buyers: [],
        outcome: {
          seed: 77,
          soldShare: 0.25,
          pendingShare: 1,
          pendingMinMs: 10,
          pendingMaxMs: 20,
          latencyMinMs: 0,
          latencyMaxMs: 5,
          fault5xxRate: 0.1,
          faultTimeoutRate: 0.05,
          faultResetRate: 0.05,
          faultMalformedRate: 0.05,
          timeoutHoldMs: 30_000,
          faultOversizedRate: 0.02,
          oversizedBytes: 2_000_000,
          oversizedChunkIntervalMs: 5,
          soldRedirect: false,
          rejectRedirect: false,
          testPendingMs: 0,
          testPendingPings: 3,
          litigatorDelayMs: 250,
        },
      },
    });
  });

  it('builds the default public URL from the port', () => {
    expect(loadEnv({ SANDBOX_PORT: '4020' }).sandbox.publicUrl).toBe('http://127.0.0.1:4020');
  });

  it('fails naming every bad variable', () => {
    expect(() => loadEnv({ SANDBOX_PORT: 'x', SANDBOX_REJECT_REDIRECT: 'maybe' })).toThrow(
      /SANDBOX_PORT:[\s\S]*SANDBOX_REJECT_REDIRECT:/,
    );
    expect(() => loadEnv({ SANDBOX_SOLD_SHARE: '2', SANDBOX_FAULT_RESET_RATE: '-1' })).toThrow(
      /SANDBOX_SOLD_SHARE:[\s\S]*SANDBOX_FAULT_RESET_RATE:/,
    );
    expect(() => loadEnv({ SANDBOX_PENDING_MIN_MS: '50', SANDBOX_PENDING_MAX_MS: '10' })).toThrow(
      /SANDBOX_PENDING_MIN_MS: Must not exceed pendingMaxMs/,
    );
    expect(() => loadEnv({ SANDBOX_PUBLIC_URL: 'not a url' })).toThrow(/SANDBOX_PUBLIC_URL:/);
  });
});

describe('SANDBOX_BUYERS_FILE', () => {
  it('serves the example buyers', () => {
    const file = new URL('../../../config/sandbox-buyers.example.json', import.meta.url).pathname;
    const buyers = loadEnv({ SANDBOX_BUYERS_FILE: file }).sandbox.buyers;
    expect(buyers.map((b) => `${b.id}:${b.protocol}`)).toEqual([
      'prime-market:sync-post',
      'lead-network:lead-service',
      'subprime-market:sync-post',
    ]);
  });

  it('fails naming the file when it cannot be read', () => {
    expect(() => loadEnv({ SANDBOX_BUYERS_FILE: '/nonexistent/buyers.json' })).toThrow(
      /SANDBOX_BUYERS_FILE: cannot be read/,
    );
  });
});
