import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BuyerConfig } from '@funnel/db/buyer-config';
import type { BuyerRegistry } from './buyer-registry.js';

export interface BuyerConfigWatcherOptions {
  registry: BuyerRegistry;
  /** The newest version's number (cheap), and the newest version itself. */
  version: () => Promise<number>;
  load: () => Promise<BuyerConfig | undefined>;
  /**
   * Settles once the system of record is migrated (the worker applies the migrations at start): no check runs
   * before, so a first start reads no table that does not exist yet.
   */
  ready?: Promise<unknown> | undefined;
  /** Imports BUYERS_FILE while the system of record has no version (first start). */
  importFile?: (() => Promise<unknown>) | undefined;
  /** A connection of its own: a subscribed connection can do nothing else. */
  subscriber: Redis;
  channel: string;
  /** The fallback poll: a change reaches this worker within this long even if its message was lost. */
  pollMs: number;
  logger: Logger;
  /** Told of each version this worker starts running. */
  onApplied?: (version: number) => Promise<void> | void;
  /**
   * Told after every check, read or not, of the version running: the worker's heartbeat (a check that fails
   * still shows the worker alive, running what it runs).
   */
  onChecked?: (version: number) => Promise<void> | void;
}

/**
 * Keeps a worker's buyers on the newest version of the document (ADR 0022): a check at once on each change
 * message and every `pollMs` besides. Checks run one at a time; one asked for meanwhile runs after. A version
 * that cannot be read or does not validate is logged and the running buyers are kept.
 */
export class BuyerConfigWatcher {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(private readonly options: BuyerConfigWatcherOptions) {}

  async start(): Promise<void> {
    const { subscriber, channel, pollMs } = this.options;
    subscriber.on('message', (from: string) => {
      if (from === channel) void this.check();
    });
    await subscriber.subscribe(channel).catch((err: Error) => {
      this.options.logger.warn({ err: err.message }, 'buyers change channel not subscribed: polling only');
    });
    this.#timer = setInterval(() => void this.check(), pollMs);
    this.#timer.unref();
    await this.check();
  }

  /** Reads the newest version and runs it if it is newer than the one running. */
  check(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#checkOnce().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        void this.check();
      }
    });
    return this.#running;
  }

  async #checkOnce(): Promise<void> {
    await this.options.ready;
    try {
      await this.#runNewest();
    } catch (err) {
      // Not migrated yet, PostgreSQL away, or a version this worker cannot run: the running buyers stay.
      this.options.logger.warn(
        { err: (err as Error).message },
        'buyers version not read; the running buyers stay',
      );
    }
    try {
      await this.options.onChecked?.(this.options.registry.current.version);
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message }, 'buyers heartbeat not noted');
    }
  }

  /** Runs the newest version when it is newer than the one running. */
  async #runNewest(): Promise<void> {
    const { registry, logger } = this.options;
    let version = await this.options.version();
    if (version === 0 && this.options.importFile) {
      await this.options.importFile();
      version = await this.options.version();
    }
    if (version <= registry.current.version) return;
    const config = await this.options.load();
    if (!config || !registry.apply(config)) return;
    logger.info(
      { version: config.version, paused: config.paused, keysNeeded: config.keysNeeded },
      'buyers version applied',
    );
    await this.options.onApplied?.(config.version);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
    await this.options.subscriber.quit().catch(() => undefined);
  }
}
