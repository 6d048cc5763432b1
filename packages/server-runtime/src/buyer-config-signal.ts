import type { Redis } from 'ioredis';

/**
 * How the BFF tells the workers that the buyers document changed (ADR 0022): a message on a Redis channel with
 * the new version, which each worker reads at once; each worker also polls the version, so a message lost to a
 * reconnection costs a poll interval, not the change. Each worker notes the version it applied, and when, in a
 * hash (the console and the pause benchmark read it).
 */
export function buyerConfigChannel(keyPrefix: string): string {
  return `${keyPrefix}buyers:changed`;
}

/** Hash: worker id → `<version>:<ms since the epoch it was applied>`. */
export function buyerConfigAppliedKey(keyPrefix: string): string {
  return `${keyPrefix}buyers:applied`;
}

/** Tells every worker that `version` is the newest. */
export async function publishBuyerConfigChange(
  redis: Redis,
  keyPrefix: string,
  version: number,
): Promise<void> {
  await redis.publish(buyerConfigChannel(keyPrefix), String(version));
}

/** Each worker's applied version and when, as noted by {@link buyerConfigAppliedKey}. */
export async function appliedBuyerVersions(
  redis: Redis,
  keyPrefix: string,
): Promise<Map<string, { version: number; at: number }>> {
  const all = await redis.hgetall(buyerConfigAppliedKey(keyPrefix));
  return new Map(
    Object.entries(all).map(([worker, value]) => {
      const [version, at] = value.split(':');
      return [worker, { version: Number(version), at: Number(at) }];
    }),
  );
}
