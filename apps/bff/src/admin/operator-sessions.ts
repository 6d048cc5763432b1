import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { OperatorRole } from '@funnel/contracts/operators';

/** What a live session stands for. The role is the account's at sign-in: changing it ends the sessions. */
export interface OperatorSessionData {
  accountId: string;
  email: string;
  role: OperatorRole;
  createdAt: number;
  lastSeenAt: number;
  /** The role needs a second factor the account has not enrolled: the session opens only its enrolment. */
  mustEnrol?: boolean;
}

export interface SessionLimits {
  /** Ended after this long without a request. */
  idleMs: number;
  /** Ended this long after sign-in, however busy. */
  absoluteMs: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Operator sessions in Redis (ADR 0021): the cookie holds 32 random bytes, Redis holds the session under the
 * bytes' SHA-256 (a copy of Redis yields no usable cookie) with the account's set of sessions beside it, so
 * every BFF instance reads the same sessions and one account's can all be ended at once. The idle and absolute
 * limits are checked against the server's clock on every read; the keys' TTL only cleans up.
 */
export class OperatorSessions {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly limits: SessionLimits,
  ) {}

  private sessionKey(hash: string): string {
    return `${this.keyPrefix}operator-session:${hash}`;
  }

  private accountKey(accountId: string): string {
    return `${this.keyPrefix}operator-account-sessions:${accountId}`;
  }

  /** Starts a session; answers the cookie value, never stored as such. */
  async start(
    account: Pick<OperatorSessionData, 'accountId' | 'email' | 'role' | 'mustEnrol'>,
    nowMs: number,
  ): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const hash = sha256(id);
    const data: OperatorSessionData = { ...account, createdAt: nowMs, lastSeenAt: nowMs };
    await this.redis
      .multi()
      .set(this.sessionKey(hash), JSON.stringify(data), 'PX', this.limits.idleMs)
      .sadd(this.accountKey(account.accountId), hash)
      .pexpire(this.accountKey(account.accountId), this.limits.absoluteMs)
      .exec();
    return id;
  }

  /** The live session of a cookie value, its idle time restarted; undefined when unknown, idle or too old. */
  async touch(id: string, nowMs: number): Promise<OperatorSessionData | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const key = this.sessionKey(sha256(id));
    const raw = await this.redis.get(key);
    if (raw === null) return undefined;
    const data = JSON.parse(raw) as OperatorSessionData;
    const absoluteLeft = data.createdAt + this.limits.absoluteMs - nowMs;
    if (nowMs - data.lastSeenAt > this.limits.idleMs || absoluteLeft <= 0) {
      await this.end(id);
      return undefined;
    }
    const touched = { ...data, lastSeenAt: Math.max(nowMs, data.lastSeenAt) };
    // XX: a session ended between the read and this write stays ended.
    await this.redis.set(
      key,
      JSON.stringify(touched),
      'PX',
      Math.min(this.limits.idleMs, absoluteLeft),
      'XX',
    );
    return touched;
  }

  async end(id: string): Promise<void> {
    const hash = sha256(id);
    const raw = await this.redis.getdel(this.sessionKey(hash));
    if (raw !== null)
      await this.redis.srem(this.accountKey((JSON.parse(raw) as OperatorSessionData).accountId), hash);
  }

  /** Ends every session of an account: sign out everywhere, a disabled account, a changed role. */
  async endAll(accountId: string): Promise<number> {
    const hashes = await this.redis.smembers(this.accountKey(accountId));
    const multi = this.redis.multi();
    for (const hash of hashes) multi.del(this.sessionKey(hash));
    multi.del(this.accountKey(accountId));
    await multi.exec();
    return hashes.length;
  }
}
