import { describe, expect, it } from 'vitest';
import { describeRedis, redisConnectionFromEnv, redisConnectionOptions } from './redis-connection.js';

const SECRET = 'p4ss-w0rd-never-logged';

describe('redisConnectionFromEnv / redisConnectionOptions', () => {
  it('reads the ACL user, password and database from REDIS_URL', () => {
    const options = redisConnectionOptions(
      redisConnectionFromEnv({ REDIS_URL: `redis://app:${SECRET}@cache.internal:6380/2` }),
    );
    expect(options).toMatchObject({
      host: 'cache.internal',
      port: 6380,
      username: 'app',
      password: SECRET,
      db: 2,
    });
    expect(options.tls).toBeUndefined();
  });

  it('lets REDIS_USERNAME / REDIS_PASSWORD win over the URL, and turns on TLS for rediss://', () => {
    const options = redisConnectionOptions(
      redisConnectionFromEnv({
        REDIS_URL: 'rediss://old:old@cache.internal',
        REDIS_USERNAME: 'app',
        REDIS_PASSWORD: SECRET,
      }),
    );
    expect(options).toMatchObject({
      host: 'cache.internal',
      port: 6379,
      username: 'app',
      password: SECRET,
      tls: {},
    });
  });

  it('goes through the Sentinels when REDIS_SENTINELS is set, with TLS to them for rediss://', () => {
    const options = redisConnectionOptions(
      redisConnectionFromEnv({
        REDIS_URL: `rediss://app:${SECRET}@ignored`,
        REDIS_SENTINELS: 's1:26379, 10.0.0.2:26380',
        REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      }),
    );
    expect(options).toMatchObject({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
      ],
      name: 'mymaster',
      sentinelPassword: 'sentinel-secret',
      username: 'app',
      password: SECRET,
      enableTLSForSentinelMode: true,
    });
    expect(options.host).toBeUndefined();
  });

  it('refuses a malformed Sentinel list or a non-Redis URL without echoing the value', () => {
    expect(() => redisConnectionFromEnv({ REDIS_SENTINELS: 's1' })).toThrow(/REDIS_SENTINELS/);
    let message = '';
    try {
      redisConnectionFromEnv({ REDIS_URL: `http://app:${SECRET}@cache` });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/REDIS_URL/);
    expect(message).not.toContain(SECRET);
  });
});

describe('describeRedis', () => {
  it('names the target without the password or user', () => {
    const single = describeRedis(
      redisConnectionFromEnv({ REDIS_URL: `rediss://app:${SECRET}@cache:6380/1` }),
    );
    expect(single).toBe('cache:6380, TLS, authenticated, db 1');
    const viaSentinels = describeRedis(
      redisConnectionFromEnv({
        REDIS_URL: 'redis://127.0.0.1',
        REDIS_PASSWORD: SECRET,
        REDIS_SENTINELS: 'a:1,b:2',
        REDIS_SENTINEL_NAME: 'leads',
      }),
    );
    expect(viaSentinels).toBe('sentinel primary "leads" via a:1,b:2, authenticated');
    expect(single + viaSentinels).not.toContain(SECRET);
  });
});
