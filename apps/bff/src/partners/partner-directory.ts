import type { Redis } from 'ioredis';
import type { ReportFailure } from '../handled-failure.js';

export interface PartnerDirectoryOptions {
  keyPrefix: string;
  /** The fixed names, always listed first. */
  fixedNames: readonly string[];
  /** The partner source (spec §7): GET answering an object whose keys are partner names. */
  source?: { url: string; timeoutMs: number } | undefined;
  /** How long the source's names are shared from Redis before it is asked again. */
  cacheTtlMs: number;
  /** How long a failed or slow source is left alone, so a broken source never slows every page view. */
  failureTtlMs: number;
  /** Told why the source gave nothing usable. */
  /** Told of a source that failed and of a cache that could not be read or written: each is answered around. */
  reportFailure: ReportFailure;
}

// Bounds on what the source can put on the page; a real partner list is tens of short names.
const MAX_SOURCE_NAMES = 500;
const MAX_NAME_LENGTH = 120;

/**
 * The names on the Partners page: the fixed list, then the names the partner source adds. The source's answer
 * is cached in Redis, so every BFF instance shares one copy and the source is asked at most once per cache
 * period; a failing or slow source leaves the fixed list.
 */
export class PartnerDirectory {
  private inFlight: Promise<string[]> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly options: PartnerDirectoryOptions,
  ) {}

  get cacheKey(): string {
    return `${this.options.keyPrefix}partners:source-names`;
  }

  async names(): Promise<string[]> {
    const fromSource = this.options.source ? await this.sourceNames(this.options.source) : [];
    return mergeNames(this.options.fixedNames, fromSource);
  }

  private async sourceNames(source: { url: string; timeoutMs: number }): Promise<string[]> {
    const cached = await this.redis.get(this.cacheKey).catch((error: unknown) => {
      this.options.reportFailure('partner_names_cache', error);
      return null;
    });
    if (cached !== null) return JSON.parse(cached) as string[];
    // Concurrent page views on this instance wait for one request to the source.
    this.inFlight ??= this.fetchAndCache(source).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchAndCache(source: { url: string; timeoutMs: number }): Promise<string[]> {
    let names: string[] = [];
    let ttlMs = this.options.cacheTtlMs;
    try {
      names = await fetchSourceNames(source);
    } catch (error) {
      this.options.reportFailure('partner_source', error);
      ttlMs = this.options.failureTtlMs;
    }
    await this.redis
      .set(this.cacheKey, JSON.stringify(names), 'PX', ttlMs)
      .catch((error: unknown) => this.options.reportFailure('partner_names_cache', error));
    return names;
  }
}

async function fetchSourceNames(source: { url: string; timeoutMs: number }): Promise<string[]> {
  const response = await fetch(source.url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(source.timeoutMs),
  });
  if (!response.ok) throw new Error(`partner source answered ${response.status}`);
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error('partner source did not answer an object of partner names');
  }
  return Object.keys(body)
    .map((name) => name.trim())
    .filter((name) => name.length > 0 && name.length <= MAX_NAME_LENGTH && !/\p{Cc}/u.test(name))
    .slice(0, MAX_SOURCE_NAMES);
}

/** The fixed names, then each further name once (compared without regard to case). */
function mergeNames(fixed: readonly string[], more: readonly string[]): string[] {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const name of [...fixed, ...more]) {
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(name);
  }
  return merged;
}
