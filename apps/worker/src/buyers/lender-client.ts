import { Pool, errors as undiciErrors } from 'undici';
import type * as z from 'zod';
import {
  LENDER_NETWORK_PATHS,
  PingResponseSchema,
  SubmitResponseSchema,
  type PingQuery,
  type PingResponse,
  type SubmissionPayload,
  type SubmitResponse,
} from '@funnel/contracts/lender-network';
import {
  FinalLenderError,
  RetryableLenderError,
  retryableStatusKind,
  transportFailureKind,
} from './lender-errors.js';

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
  /** Told of every call: which endpoint, how it ended ('ok', 'http_5xx', 'timeout', ...) and how long it took. */
  observe?: (endpoint: 'submit' | 'ping', result: string, seconds: number) => void;
}

/**
 * The lender network over pooled keep-alive connections (undici). Every failure is classified as retryable or
 * final (see lender-errors.ts); answers are validated with the contracts schemas.
 */
export class LenderClient {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(private readonly options: LenderClientOptions) {
    const url = new URL(options.baseUrl);
    this.basePath = url.pathname.replace(/\/$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections,
      connectTimeout: options.connectTimeoutMs,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 10_000,
      // Undici 8 negotiates HTTP/2 by default; `connections` sizes HTTP/1.1 keep-alive sockets, so stay on 1.1.
      allowH2: false,
    });
  }

  /** `timeoutMs` overrides the configured header and body timeouts (a waterfall attempt's time budget). */
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
    let statusCode: number;
    let text: string;
    try {
      const response = await this.pool.request({
        method,
        path: `${this.basePath}${path}`,
        headers: {
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        ...(body ? { body } : {}),
        ...(timeoutMs ? { headersTimeout: timeoutMs, bodyTimeout: timeoutMs } : {}),
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw new RetryableLenderError(
        `${method} ${path.split('?')[0]}: ${describe(error)}`,
        transportFailureKind(error),
      );
    }
    if (statusCode === 429 || statusCode >= 500) {
      throw new RetryableLenderError(
        `${method} ${path.split('?')[0]} answered ${statusCode}`,
        retryableStatusKind(statusCode),
      );
    }
    if (statusCode >= 400) {
      throw new FinalLenderError(
        `${method} ${path.split('?')[0]} answered ${statusCode}`,
        statusCode,
        fieldsOf(text),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RetryableLenderError(`${method} ${path.split('?')[0]} answered malformed JSON`, 'malformed');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new RetryableLenderError(
        `${method} ${path.split('?')[0]} answered an unexpected shape`,
        'malformed',
      );
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

function describe(error: unknown): string {
  if (error instanceof undiciErrors.UndiciError) return error.code;
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
