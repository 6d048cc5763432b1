import { Agent, request } from 'undici';

/**
 * What the litigator list said of a phone: `clean`, `listed` with the provider's own codes (`tcpa-litigator`,
 * `prelitigation1`, …), or `unchecked` when it did not answer in time, refused our key or answered something we
 * cannot read.
 */
export type LitigatorFinding =
  { kind: 'clean' } | { kind: 'listed'; codes: string[] } | { kind: 'unchecked'; why: string };

export interface LitigatorListOptions {
  /** The service's base address (`https://api.blacklistalliance.net`; the sandbox's `/blacklist-alliance`). */
  baseUrl: string;
  apiKey: string;
  /** The most one lookup may take, connection included. */
  timeoutMs: number;
}

/**
 * Blacklist Alliance's single-number lookup (the "standard" API, v3): `GET /standard/api/v3/Lookup/key/{key}/
 * phone/{10 digits}/response/json`, answered `{"message":"Good"}` or `{"message":"Blacklisted","code":"a,b"}`.
 * The key travels in the path, as the service wants it: this client never logs or reports an address, and
 * follows no redirect.
 */
export function createLitigatorList(options: LitigatorListOptions) {
  const agent = new Agent({
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
  });
  const base = options.baseUrl.replace(/\/+$/, '');
  const key = encodeURIComponent(options.apiKey);

  return {
    async lookup(phone: string): Promise<LitigatorFinding> {
      const url = `${base}/standard/api/v3/Lookup/key/${key}/phone/${encodeURIComponent(phone)}/response/json`;
      try {
        const response = await request(url, {
          dispatcher: agent,
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) return { kind: 'unchecked', why: `status ${response.statusCode}` };
        return readAnswer(text);
      } catch (error) {
        const name = (error as Error).name;
        return {
          kind: 'unchecked',
          why: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : name,
        };
      }
    },
    close: () => agent.close(),
  };
}

export type LitigatorList = ReturnType<typeof createLitigatorList>;

/** The service answers a refused key with plain text ("API Key Not Found"), hence the text first. */
function readAnswer(text: string): LitigatorFinding {
  let answer: { message?: unknown; code?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return { kind: 'unchecked', why: 'not JSON' };
  }
  if (answer.message === 'Good') return { kind: 'clean' };
  if (answer.message === 'Blacklisted') {
    const codes = typeof answer.code === 'string' ? answer.code.split(',').map((c) => c.trim()) : [];
    return { kind: 'listed', codes: codes.filter(Boolean).slice(0, 10) };
  }
  return { kind: 'unchecked', why: 'unknown answer' };
}
