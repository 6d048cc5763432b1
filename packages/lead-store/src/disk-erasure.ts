import type { Redis } from 'ioredis';
import { evalScript } from './redis-script.js';
import { redisKeys } from './keys.js';

/**
 * An erasure removes keys from Redis's memory, but its AOF still holds every earlier write of them, and an RDB
 * snapshot holds them as they were, until Redis rewrites those files (docs/adr/0014). A deletion request therefore
 * marks that the files need rewriting ({@link DiskErasure.markErased}); the worker's compaction pass
 * ({@link DiskErasure.compact}) rewrites the AOF once for every erasure marked before it started, and saves a new
 * snapshot when snapshots are configured, so a burst of requests costs one rewrite.
 */

/** The queue of the workers' scheduled compaction pass (one pass at a time across all workers). */
export const ERASURE_COMPACTION_QUEUE = 'erasure-compaction';

/** How a compaction pass ended (the worker counts them in `funnel_erasure_compactions_total{result}`). */
export type CompactionResult =
  /** No erasure waiting. */
  | 'idle'
  /** The AOF was rewritten (and the RDB saved, when snapshots are on): every erasure marked before is on disk. */
  | 'rewritten'
  /** Redis keeps nothing on disk (no AOF, no snapshots): nothing to rewrite. */
  | 'no-persistence'
  /** A rewrite or snapshot was already running (ours or Redis's own): tried again next pass. */
  | 'busy'
  /** Redis refused the command (a managed Redis may rename or forbid it): the operator's procedure applies. */
  | 'refused'
  /** The rewrite or save ran and failed, or did not finish in time: tried again next pass. */
  | 'failed';

// Records the time of the latest erasure by Redis's own clock, so every process compares the same clock.
const MARK = `
local t = redis.call('TIME')
redis.call('SET', KEYS[1], tostring(t[1] * 1000 + math.floor(t[2] / 1000)))
return 1`;

// Clears the mark only if no erasure came after the rewrite forked (that one waits for the next pass).
const CLEAR_IF_COVERED = `
local marked = redis.call('GET', KEYS[1])
if marked and tonumber(marked) <= tonumber(ARGV[1]) then return redis.call('DEL', KEYS[1]) end
return 0`;

const POLL_MS = 200;

export interface DiskErasureOptions {
  keyPrefix: string;
  /** The longest a rewrite (or save) may take before the pass gives up and tries again later. */
  timeoutMs?: number;
}

export class DiskErasure {
  constructor(
    private readonly redis: Redis,
    private readonly options: DiskErasureOptions,
  ) {}

  /** Where the time of the latest erasure not yet rewritten out of the files is kept (epoch ms, Redis clock). */
  get pendingKey(): string {
    return redisKeys(this.options.keyPrefix).erasurePendingRewrite;
  }

  /** Notes that data was erased and the files must be rewritten. */
  async markErased(): Promise<void> {
    await evalScript(this.redis, MARK, 1, this.pendingKey);
  }

  /** Epoch ms (Redis clock) of the oldest erasure still in the files, or undefined when none waits. */
  async pendingSince(): Promise<number | undefined> {
    const raw = await this.redis.get(this.pendingKey);
    return raw === null ? undefined : Number(raw);
  }

  /**
   * One compaction pass: when an erasure waits and Redis is not already rewriting or saving, rewrites the AOF
   * (BGREWRITEAOF) and waits for it, then, when RDB snapshots are configured, saves one (BGSAVE) and waits for it.
   * The mark is cleared only for the erasures made before the rewrite started.
   */
  async compact(): Promise<CompactionResult> {
    if ((await this.redis.get(this.pendingKey)) === null) return 'idle';
    let state: Persistence;
    try {
      state = await this.persistence();
    } catch {
      return 'refused';
    }
    if (state.aofRewriting || state.rdbSaving) return 'busy';
    const snapshots = await this.snapshotsConfigured();
    if (!state.aofEnabled && snapshots === false) {
      await this.clearUpTo(await this.redisNow());
      return 'no-persistence';
    }
    const startedAt = await this.redisNow();
    try {
      if (state.aofEnabled) {
        await this.redis.bgrewriteaof();
        const done = await this.waitFor((s) => !s.aofRewriting);
        if (!done || done.aofLastRewrite !== 'ok') return 'failed';
      }
      // Unknown (CONFIG refused) counts as configured: a snapshot saved for nothing costs less than one kept.
      if (snapshots !== false) {
        await this.redis.bgsave();
        const done = await this.waitFor((s) => !s.rdbSaving);
        if (!done || done.rdbLastSave !== 'ok') return 'failed';
      }
    } catch (error) {
      return /in progress|already/i.test(String(error)) ? 'busy' : 'refused';
    }
    await this.clearUpTo(startedAt);
    return 'rewritten';
  }

  private async clearUpTo(ms: number): Promise<void> {
    await evalScript(this.redis, CLEAR_IF_COVERED, 1, this.pendingKey, ms);
  }

  private async redisNow(): Promise<number> {
    const [seconds, micros] = await this.redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  /** Whether RDB save points are set; undefined when Redis will not say (CONFIG renamed or forbidden). */
  private async snapshotsConfigured(): Promise<boolean | undefined> {
    try {
      const [, save] = (await this.redis.config('GET', 'save')) as [string, string];
      return save.trim() !== '';
    } catch {
      return undefined;
    }
  }

  private async persistence(): Promise<Persistence> {
    const info = parseInfo(await this.redis.info('persistence'));
    return {
      aofEnabled: info.aof_enabled === '1',
      // A rewrite Redis has scheduled (waiting for a snapshot to end) counts as running.
      aofRewriting: info.aof_rewrite_in_progress === '1' || info.aof_rewrite_scheduled === '1',
      rdbSaving: info.rdb_bgsave_in_progress === '1',
      aofLastRewrite: info.aof_last_bgrewrite_status ?? '',
      rdbLastSave: info.rdb_last_bgsave_status ?? '',
    };
  }

  private async waitFor(ready: (state: Persistence) => boolean): Promise<Persistence | undefined> {
    const deadline = Date.now() + (this.options.timeoutMs ?? 10 * 60_000);
    // BGREWRITEAOF and BGSAVE answer once the child is forked, so the first look already sees it running.
    while (Date.now() < deadline) {
      const state = await this.persistence();
      if (ready(state)) return state;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return undefined;
  }
}

interface Persistence {
  aofEnabled: boolean;
  aofRewriting: boolean;
  rdbSaving: boolean;
  aofLastRewrite: string;
  rdbLastSave: string;
}

function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1).trim();
  }
  return out;
}
