import type * as z from 'zod';
import type { AddressAllowList } from '@funnel/server-runtime/network-address';
import {
  LENDER_NETWORK_PATHS,
  PingResponseSchema,
  SubmitResponseSchema,
  type PingQuery,
  type PingResponse,
  type SubmissionPayload,
  type SubmitResponse,
} from '@funnel/contracts/lender-network';
import { BudgetedPool, DEFAULT_MAX_RESPONSE_BYTES } from './budgeted-pool.js';
import { FinalLenderError, RetryableLenderError, retryableStatusKind } from './lender-errors.js';

export interface LenderClientOptions {
  baseUrl: string;
  apiKey?: string;
  connections: number;
  connectTimeoutMs: number;
  /** Header and body timeouts of the post, which the lender may take a while to answer. */
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /**
   * Header and body timeout of a ping: at most the poll interval, so a ping that hangs is given up and tried
   * again at the next tick instead of holding the lead's outcome back.
   */
  pingTimeoutMs?: number;
  /** Answers longer than this end as `response_too_large` (default 1 MiB). */
  maxResponseBytes?: number;
  /** Where calls may connect (a buyer speaking the lender network's protocol, ADR 0024); left out: anywhere. */
  addresses?: AddressAllowList;
  /** Told of every call: which endpoint, how it ended ('ok', 'http_5xx', 'timeout', ...) and how long it took. */
  observe?: (endpoint: 'submit' | 'ping', result: string, seconds: number) => void;
}

/**
 * The lender network over pooled keep-alive connections (undici, through a BudgetedPool). Every failure is
 * classified as retryable or final (see lender-errors.ts); answers are validated with the contracts schemas.
 */
export class LenderClient {
  private readonly pool: BudgetedPool;
  private readonly basePath: string;

  constructor(private readonly options: LenderClientOptions) {
    const url = new URL(options.baseUrl);
    this.basePath = url.pathname.replace(/\/$/, '');
    this.pool = new BudgetedPool(url.origin, {
      connections: options.connections,
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      ...(options.addresses ? { addresses: options.addresses } : {}),
    });
  }

  /**
   * `timeoutMs`, when given, is the call's whole budget from now (a waterfall attempt's time): waiting for a
   * connection included, in place of the configured header and body timeouts.
   */
  submit(payload: SubmissionPayload, timeoutMs?: number): Promise<SubmitResponse> {
    return this.observed('submit', () =>
      this.call(
        'POST',
        LENDER_NETWORK_PATHS.submit,
        SubmitResponseSchema,
        JSON.stringify(payload),
        timeoutMs,
      ),
    );
  }

  ping(query: PingQuery, timeoutMs?: number): Promise<PingResponse> {
    const search = new URLSearchParams(query).toString();
    const timeout = timeoutMs ?? this.options.pingTimeoutMs;
    return this.observed('ping', () =>
      this.call('GET', `${LENDER_NETWORK_PATHS.ping}?${search}`, PingResponseSchema, undefined, timeout),
    );
  }

  private async observed<T>(endpoint: 'submit' | 'ping', call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let result = 'ok';
    try {
      return await call();
    } catch (error) {
      result =
        error instanceof RetryableLenderError || error instanceof FinalLenderError ? error.kind : 'error';
      throw error;
    } finally {
      this.options.observe?.(endpoint, result, (performance.now() - started) / 1000);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T,
    body?: string,
    timeoutMs?: number,
  ): Promise<z.output<T>> {
    const what = `${method} ${path.split('?')[0]}`;
    const budget = timeoutMs ? { startedAt: performance.now(), budgetMs: timeoutMs } : undefined;
    const { statusCode, text } = await this.pool.request(what, budget, () => ({
      method,
      path: `${this.basePath}${path}`,
      headers: {
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      ...(body ? { body } : {}),
    }));
    if (statusCode === 429 || statusCode >= 500) {
      throw new RetryableLenderError(`${what} answered ${statusCode}`, retryableStatusKind(statusCode));
    }
    if (statusCode >= 400) {
      throw new FinalLenderError(`${what} answered ${statusCode}`, statusCode, fieldsOf(text));
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RetryableLenderError(`${what} answered malformed JSON`, 'malformed');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new RetryableLenderError(`${what} answered an unexpected shape`, 'malformed');
    }
    return parsed.data;
  }
}

/** The field errors of a 4xx answer (`error.fields`), when it has any. */
function fieldsOf(text: string): Record<string, string> | undefined {
  try {
    const fields = (JSON.parse(text) as { error?: { fields?: unknown } }).error?.fields;
    if (!fields || typeof fields !== 'object') return undefined;
    return Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return undefined;
  }
}
