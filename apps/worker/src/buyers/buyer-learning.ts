import type { Logger } from 'pino';
import type { BuyerRecord } from './expected-value.js';

const NO_RECORD: BuyerRecord = { posts: 0, accepted: 0, settledSales: 0, returned: 0 };

/**
 * What each worker knows of the buyers' records (ADR 0020): read from the system of record every `everyMs`, so
 * ranking a lead costs no query. Until the first read, or for a buyer with no record in the window, a buyer's
 * record is empty and its probabilities are the priors'. A failed read keeps the last records, and so does a read
 * that answers `undefined` (nothing to learn now: the buyers are not in auction mode). `everyMs` may be a function,
 * asked again after each read, so a live change of the refresh interval applies from the next one. Started and
 * stopped by the worker's composition root: nothing runs at import.
 */
export class BuyerLearning {
  #records = new Map<string, BuyerRecord>();
  /** The next read's timer: set from `start` to `stop`. */
  #timer: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(
    private readonly read: () => Promise<Map<string, BuyerRecord> | undefined>,
    private readonly everyMs: number | (() => number),
    private readonly logger?: Logger,
  ) {}

  /** The buyer's record as last read (empty when none). */
  record(buyer: string): BuyerRecord {
    return this.#records.get(buyer) ?? NO_RECORD;
  }

  /** Reads the records again now; one read at a time. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.read()
      .then((records) => {
        if (records) this.#records = records;
      })
      .catch((error: Error) => {
        this.logger?.warn({ err: error.message }, 'buyer records not read; keeping the last ones');
      })
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  start(): void {
    if (this.#timer) return;
    const tick = () => {
      void this.refresh();
      const everyMs = typeof this.everyMs === 'function' ? this.everyMs() : this.everyMs;
      this.#timer = setTimeout(tick, everyMs);
      this.#timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#refreshing;
  }
}
