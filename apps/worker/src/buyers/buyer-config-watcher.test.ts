import { pino } from 'pino';
import { expect, it } from 'vitest';
import { BuyersFileSchema } from '@funnel/contracts/buyers';
import type { Redis } from 'ioredis';
import { BuyerConfigWatcher } from './buyer-config-watcher.js';
import { BuyerRegistry } from './buyer-registry.js';

it('reads no buyers table before the system of record is migrated (no warning on a first start)', async () => {
  const file = BuyersFileSchema.parse({
    timeZone: 'America/Chicago',
    buyers: [{ id: 'a', protocol: 'sync-post', baseUrl: 'http://127.0.0.1:9/a', tier: 1, priceLadder: [10] }],
  });
  const registry = new BuyerRegistry({ version: 0, file, paused: [] }, (buyer) => ({
    buyer,
    post: () => Promise.reject(new Error('not called')),
    check: () => Promise.reject(new Error('not called')),
    close: async () => undefined,
  }));
  let migrated!: () => void;
  const ready = new Promise<void>((resolve) => (migrated = resolve));
  const reads: string[] = [];
  const watcher = new BuyerConfigWatcher({
    registry,
    ready,
    version: async () => {
      reads.push('version');
      return 0;
    },
    load: async () => undefined,
    subscriber: undefined as unknown as Redis,
    channel: 'unused',
    pollMs: 60_000,
    logger: pino({ level: 'silent' }),
  });

  const checked = watcher.check();
  await new Promise((resolve) => setImmediate(resolve));
  expect(reads).toEqual([]);
  migrated();
  await checked;
  expect(reads).toEqual(['version']);
});
