import type { Buyer, BuyersFile } from '@funnel/contracts/buyers';
import type { BuyerAdapter } from './buyer-adapter.js';
import { Bulkheads } from './bulkheads.js';

/**
 * A buyers document as one worker runs it (ADR 0022): the version, the file, the paused buyers, and those that
 * need their key (ADR 0024: moved to another origin, their credential dropped).
 */
export interface BuyerRoster {
  version: number;
  file: BuyersFile;
  paused: ReadonlySet<string>;
  keysNeeded: ReadonlySet<string>;
  adapters: ReadonlyMap<string, BuyerAdapter>;
}

/** A version as the registry takes it; `keysNeeded` left out: none. */
export interface BuyerVersion {
  version: number;
  file: BuyersFile;
  paused: readonly string[];
  keysNeeded?: readonly string[];
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
    initial: BuyerVersion,
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
      keysNeeded: new Set(initial.keysNeeded),
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
   * Whether the buyer is offered no lead: paused, or waiting for its key (ADR 0024). A buyer that needs its key
   * was moved to an address its credential was not given for: sending it leads without one would hand a
   * borrower's data to an address nobody vouched for with a credential.
   */
  isHeld(buyer: string): boolean {
    return this.#roster.paused.has(buyer) || this.#roster.keysNeeded.has(buyer);
  }

  /**
   * Runs `next` from now on when it is newer than the version running; false (and nothing changes) when it is
   * not. The old adapters that `next` no longer uses are closed in the background.
   */
  apply(next: BuyerVersion): boolean {
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
    this.#roster = {
      version: next.version,
      file: next.file,
      paused: new Set(next.paused),
      keysNeeded: new Set(next.keysNeeded),
      adapters,
    };
    void Promise.allSettled(retired.map((adapter) => adapter.close()));
    return true;
  }

  /** Closes every adapter (the worker's shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#roster.adapters.values()].map((adapter) => adapter.close()));
  }
}
