import type { Buyer, BuyersFile } from '@funnel/contracts/buyers';
import type { BuyerAdapter } from './buyer-adapter.js';
import { Bulkheads } from './bulkheads.js';

/** A buyers document as one worker runs it (ADR 0022): the version, the file, and the paused buyers. */
export interface BuyerRoster {
  version: number;
  file: BuyersFile;
  paused: ReadonlySet<string>;
  adapters: ReadonlyMap<string, BuyerAdapter>;
}

/**
 * The buyers this worker offers leads to, swapped whole when a new version of the document arrives (ADR 0022). A
 * lead reads the roster when it plans its walk and again before each attempt, so a paused buyer gets no new ping
 * or post from the next attempt on; an attempt already begun holds its adapter and finishes. A buyer whose
 * settings did not change keeps its adapter (and its connection pool); a changed or removed buyer's adapter is
 * closed once its calls in flight have ended (undici's close waits for them).
 */
export class BuyerRegistry {
  readonly bulkheads: Bulkheads;
  #roster: BuyerRoster;
  readonly #settings = new Map<string, string>();

  constructor(
    initial: { version: number; file: BuyersFile; paused: readonly string[] },
    private readonly createAdapter: (buyer: Buyer) => BuyerAdapter,
  ) {
    this.bulkheads = new Bulkheads(initial.file.buyers);
    const adapters = new Map<string, BuyerAdapter>();
    for (const buyer of initial.file.buyers) {
      adapters.set(buyer.id, createAdapter(buyer));
      this.#settings.set(buyer.id, JSON.stringify(buyer));
    }
    this.#roster = {
      version: initial.version,
      file: initial.file,
      paused: new Set(initial.paused),
      adapters,
    };
  }

  get current(): BuyerRoster {
    return this.#roster;
  }

  isPaused(buyer: string): boolean {
    return this.#roster.paused.has(buyer);
  }

  /**
   * Runs `next` from now on when it is newer than the version running; false (and nothing changes) when it is
   * not. The old adapters that `next` no longer uses are closed in the background.
   */
  apply(next: { version: number; file: BuyersFile; paused: readonly string[] }): boolean {
    const old = this.#roster;
    if (next.version <= old.version) return false;
    const adapters = new Map<string, BuyerAdapter>();
    const retired: BuyerAdapter[] = [];
    const settings = new Map<string, string>();
    for (const buyer of next.file.buyers) {
      const json = JSON.stringify(buyer);
      settings.set(buyer.id, json);
      const kept = old.adapters.get(buyer.id);
      if (kept && this.#settings.get(buyer.id) === json) {
        adapters.set(buyer.id, kept);
      } else {
        adapters.set(buyer.id, this.createAdapter(buyer));
      }
    }
    for (const [id, adapter] of old.adapters) if (adapters.get(id) !== adapter) retired.push(adapter);
    this.#settings.clear();
    for (const [id, json] of settings) this.#settings.set(id, json);
    this.bulkheads.resize(next.file.buyers);
    this.#roster = { version: next.version, file: next.file, paused: new Set(next.paused), adapters };
    void Promise.allSettled(retired.map((adapter) => adapter.close()));
    return true;
  }

  /** Closes every adapter (the worker's shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#roster.adapters.values()].map((adapter) => adapter.close()));
  }
}
