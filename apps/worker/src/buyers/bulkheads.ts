import type { Buyer } from '@funnel/contracts/buyers';

/**
 * Each buyer's share of this worker process (ADR 0017): at most `buyer.concurrency` of its calls in flight at
 * once. A place is taken without waiting, or not at all: a lead that finds its buyer full does not wait here
 * (that would hold a job slot), its job is parked and tried again (see `runWaterfall`).
 */
export class Bulkheads {
  readonly #limits = new Map<string, number>();
  readonly #inFlight = new Map<string, number>();

  constructor(buyers: readonly Pick<Buyer, 'id' | 'concurrency'>[]) {
    this.resize(buyers);
  }

  /**
   * The shares of a new buyers document (ADR 0022): calls in flight keep their places and release them here; a
   * buyer whose share shrank below its calls in flight takes no new place until enough have ended; a buyer no
   * longer listed takes none.
   */
  resize(buyers: readonly Pick<Buyer, 'id' | 'concurrency'>[]): void {
    this.#limits.clear();
    for (const buyer of buyers) this.#limits.set(buyer.id, buyer.concurrency);
  }

  /** A place in the buyer's share, as its release (idempotent), or undefined when every place is taken. */
  tryTake(buyer: string): (() => void) | undefined {
    const limit = this.#limits.get(buyer);
    if (limit === undefined) return undefined;
    const used = this.#inFlight.get(buyer) ?? 0;
    if (used >= limit) return undefined;
    this.#inFlight.set(buyer, used + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight.set(buyer, (this.#inFlight.get(buyer) ?? 1) - 1);
    };
  }

  /** The buyer's calls in flight now (the metric, and the tests). */
  inFlight(buyer: string): number {
    return this.#inFlight.get(buyer) ?? 0;
  }

  /** The sum of every buyer's share: the most job slots buyer calls can hold at once. */
  get total(): number {
    let sum = 0;
    for (const limit of this.#limits.values()) sum += limit;
    return sum;
  }
}

/**
 * Job slots kept free of buyer calls at least, for the short runs: planning, recording, parking, finishing. They
 * last milliseconds, so a few slots serve hundreds of runs a second.
 */
export const MIN_HEADROOM_SLOTS = 4;

/**
 * The submission worker's job concurrency with a buyers file: `WORKER_CONCURRENCY`, raised when needed so that
 * every buyer's share together still leaves {@link MIN_HEADROOM_SLOTS} slots for everything else. A slot held
 * by a buyer call is an await, not CPU, so the sum is cheap to give.
 */
export function submissionConcurrency(configured: number, bulkheads: Bulkheads | undefined): number {
  if (!bulkheads) return configured;
  return Math.max(configured, bulkheads.total + MIN_HEADROOM_SLOTS);
}
