import { createHmac } from 'node:crypto';
import { BlockList } from 'node:net';
import type { Redis } from 'ioredis';
import { isPublicAddress } from '@funnel/server-runtime/network-address';

export interface IpVelocityOptions {
  keyPrefix: string;
  /** The keyed hash's secret (SUPPRESSION_HASH_SECRET): no address is stored in clear. */
  hashSecret: string;
  /** How far back the count looks. */
  windowMs: number;
}

/** RFC 5737's documentation ranges: in examples and tests, never a borrower's address. */
const DOCUMENTATION = new BlockList();
for (const network of ['192.0.2.0', '198.51.100.0', '203.0.113.0'])
  DOCUMENTATION.addSubnet(network, 24, 'ipv4');

/** Whether an address can be a borrower's: public, and not one reserved for documentation. */
function isBorrowerAddress(ip: string): boolean {
  return isPublicAddress(ip) && !DOCUMENTATION.check(ip, 'ipv4');
}

/**
 * How many leads were submitted from one address in the last `windowMs` (issue 41): a Redis sorted set per keyed
 * hash of the address, members the lead ids scored by when each was first counted, trimmed to the window and
 * expiring with it, so nothing outlives an hour. Funnel and partner leads alike (a partner posts the borrower's
 * address). A lead counted again (screened again after a crash) keeps its first time and counts once. A
 * non-public address (loopback, a private network: our own proxy, a test) or a documentation one (an example)
 * says nothing of the borrower: not counted.
 */
export function createIpVelocity(redis: Redis, options: IpVelocityOptions) {
  return {
    /** The leads from `ip` within the window, this one included; undefined for an address not counted. */
    async count(leadId: string, ip: string, now: number): Promise<number | undefined> {
      if (!isBorrowerAddress(ip)) return undefined;
      const hash = createHmac('sha256', options.hashSecret).update(`ip:${ip}`).digest('base64url');
      const key = `${options.keyPrefix}velocity:ip:${hash}`;
      const results = await redis
        .multi()
        .zadd(key, 'NX', now, leadId)
        .zremrangebyscore(key, '-inf', now - options.windowMs)
        .zcard(key)
        .pexpire(key, options.windowMs)
        .exec();
      const [error, count] = results?.[2] ?? [new Error('no answer')];
      if (error) throw error;
      return Number(count);
    },
  };
}

export type IpVelocity = ReturnType<typeof createIpVelocity>;
