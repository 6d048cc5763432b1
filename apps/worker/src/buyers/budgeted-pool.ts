import { isIP } from 'node:net';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { guardedLookup, hostOf, type AddressAllowList } from '@funnel/server-runtime/network-address';
import { SpanKind, inSpan, traceHeaders } from '@funnel/server-runtime/tracing';
import { RetryableLenderError, transportFailureKind } from './lender-errors.js';

/** The largest answer read from a buyer or the lender network unless configured (UPSTREAM_RESPONSE_MAX_BYTES). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface BudgetedPoolOptions {
  /** How many calls may be in flight at once: the pool's keep-alive connections. */
  connections: number;
  connectTimeoutMs: number;
  /** The header and body timeouts of a call made without a budget. */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Answers longer than this are given up as `response_too_large`, never buffered past it. */
  maxResponseBytes: number;
  /**
   * Where calls may connect (a buyer's, ADR 0024): public addresses and these ranges, checked on the address each
   * connection resolves to; a refused one ends the call as `address_refused`, unsent. Left out: anywhere (the
   * lender network, which the operator configures).
   */
  addresses?: AddressAllowList;
}

/** A call's time: it began at `startedAt` (performance.now()) and may last `budgetMs` from then. */
export interface CallBudget {
  startedAt: number;
  budgetMs: number;
}

/** The request as sent once a connection is ours; `remainingMs` is what is left of the budget at that moment. */
export type RequestBuilder = (
  remainingMs: number | undefined,
) => Omit<Dispatcher.RequestOptions, 'origin' | 'signal' | 'headersTimeout' | 'bodyTimeout'> | undefined;

export interface BudgetedAnswer {
  statusCode: number;
  text: string;
}

/**
 * One upstream's undici pool, with the attempt's budget enforced from the moment the attempt starts (ADR 0012,
 * "Budgets"). undici starts a request's header and body timeouts only once it has a connection, and a queued
 * request may wait for one for ever; so calls take one of the pool's `connections` slots here first, where the
 * budget's clock is already running. A call whose budget ends while it waits is never handed to undici
 * (`queue_timeout`); one that gets a slot is built then (so what it tells the buyer of its remaining time is
 * true when sent) and sent with the rest of the budget as its timeouts and abort signal. Every answer is read
 * as a stream up to `maxResponseBytes`: past that the response is destroyed (`response_too_large`).
 */
export class BudgetedPool {
  readonly #pool: Pool;
  readonly #slots: Slots;
  /** The origin's address when it names a refused one: Node looks up no address, so it is checked here. */
  readonly #refused: string | undefined;
  readonly #host: string;

  constructor(
    origin: string,
    private readonly options: BudgetedPoolOptions,
  ) {
    this.#slots = new Slots(options.connections);
    const host = hostOf(new URL(origin));
    this.#refused = options.addresses && isIP(host) && !options.addresses.allows(host) ? host : undefined;
    this.#host = new URL(origin).host;
    this.#pool = new Pool(origin, {
      connections: options.connections,
      connect: {
        timeout: options.connectTimeoutMs,
        ...(options.addresses ? { lookup: guardedLookup(options.addresses) } : {}),
      },
      ...(options.headersTimeoutMs ? { headersTimeout: options.headersTimeoutMs } : {}),
      ...(options.bodyTimeoutMs ? { bodyTimeout: options.bodyTimeoutMs } : {}),
      keepAliveTimeout: 10_000,
      // Undici 8 negotiates HTTP/2 by default; `connections` sizes HTTP/1.1 keep-alive sockets, so stay on 1.1.
      allowH2: false,
    });
  }

  /**
   * Sends the request `build` makes once a connection is free, within `budget` when given. `what` names the
   * call in error messages (method and path, never a query). `build` returning undefined means too little time
   * is left to be worth sending: the call ends as `queue_timeout`, unsent.
   */
  request(what: string, budget: CallBudget | undefined, build: RequestBuilder): Promise<BudgetedAnswer> {
    // A client span of the lead's trace per call, whose `traceparent` goes out with it (docs/tracing.md).
    return inSpan(
      what,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'server.address': this.#host, 'http.request.method': methodOf(what) },
      },
      async (span) => {
        const answer = await this.#request(what, budget, build);
        span.setAttribute('http.response.status_code', answer.statusCode);
        return answer;
      },
    );
  }

  async #request(
    what: string,
    budget: CallBudget | undefined,
    build: RequestBuilder,
  ): Promise<BudgetedAnswer> {
    if (this.#refused) {
      throw new RetryableLenderError(
        `${what}: ${this.#refused} is not a public address, nor in an allowed range; not sent`,
        'address_refused',
      );
    }
    const remaining = () => (budget ? budget.budgetMs - (performance.now() - budget.startedAt) : undefined);
    const left = remaining();
    const signal = left === undefined ? undefined : AbortSignal.timeout(Math.max(Math.ceil(left), 0));
    const release = await this.#slots.take(signal).catch(() => {
      throw new RetryableLenderError(`${what}: no connection within the budget, not sent`, 'queue_timeout');
    });
    try {
      const remainingMs = remaining();
      const request = build(remainingMs);
      if (!request || (remainingMs !== undefined && remainingMs <= 0)) {
        throw new RetryableLenderError(`${what}: too little of the budget left, not sent`, 'queue_timeout');
      }
      let response: Dispatcher.ResponseData;
      try {
        response = await this.#pool.request({
          ...request,
          headers: { ...(request.headers as Record<string, string> | undefined), ...traceHeaders() },
          ...(signal ? { signal } : {}),
          ...(remainingMs !== undefined
            ? { headersTimeout: Math.ceil(remainingMs), bodyTimeout: Math.ceil(remainingMs) }
            : {}),
        });
      } catch (error) {
        throw transportError(what, error, signal);
      }
      const text = await readLimited(response, this.options.maxResponseBytes, what, signal);
      return { statusCode: response.statusCode, text };
    } finally {
      release();
    }
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** The method of a call named `METHOD /path`. */
function methodOf(what: string): string {
  return what.split(' ', 1)[0] ?? what;
}

/**
 * The answer's body as text, read as a stream and given up (the response destroyed, so the connection is
 * closed) as soon as it is known to exceed `maxBytes`: from its Content-Length, or once the bytes read pass it.
 */
export async function readLimited(
  response: Pick<Dispatcher.ResponseData, 'headers' | 'body'>,
  maxBytes: number,
  what: string,
  signal?: AbortSignal,
): Promise<string> {
  const tooLarge = () =>
    new RetryableLenderError(`${what}: answer larger than ${maxBytes} bytes`, 'response_too_large');
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Leaving the loop destroys the body: undici stops reading and closes the socket.
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof RetryableLenderError) throw error;
    throw transportError(what, error, signal);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** A failure with no (complete) answer; the budget's signal firing is a timeout. */
function transportError(what: string, error: unknown, signal: AbortSignal | undefined): RetryableLenderError {
  if (signal?.aborted) return new RetryableLenderError(`${what}: budget ran out`, 'timeout');
  return new RetryableLenderError(`${what}: ${describe(error)}`, transportFailureKind(error));
}

function describe(error: unknown): string {
  if (error instanceof undiciErrors.UndiciError) return error.code;
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}

/** Counted slots, handed out first come first served; a waiter whose signal fires leaves the line. */
export class Slots {
  #free: number;
  readonly #waiting = new Set<() => void>();

  constructor(size: number) {
    this.#free = size;
  }

  /** Resolves with the slot's release once one is free; rejects when `signal` fires first. */
  take(signal: AbortSignal | undefined): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(grant);
        reject(new Error('aborted'));
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.#releaser());
      };
      this.#waiting.add(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.values().next();
      if (next.done) this.#free += 1;
      else {
        this.#waiting.delete(next.value);
        next.value();
      }
    };
  }
}
