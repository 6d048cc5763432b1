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
import { FinalLenderError, RetryableLenderError } from './lender-errors.js';

export interface LenderClientOptions {
  baseUrl: string;
  apiKey?: string;
  connections: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
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
    });
  }

  submit(payload: SubmissionPayload): Promise<SubmitResponse> {
    return this.call('POST', LENDER_NETWORK_PATHS.submit, SubmitResponseSchema, JSON.stringify(payload));
  }

  ping(query: PingQuery): Promise<PingResponse> {
    const search = new URLSearchParams(query).toString();
    return this.call('GET', `${LENDER_NETWORK_PATHS.ping}?${search}`, PingResponseSchema);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T,
    body?: string,
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
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw new RetryableLenderError(`${method} ${path.split('?')[0]}: ${describe(error)}`);
    }
    if (statusCode === 429 || statusCode >= 500) {
      throw new RetryableLenderError(`${method} ${path.split('?')[0]} answered ${statusCode}`);
    }
    if (statusCode >= 400) {
      throw new FinalLenderError(`${method} ${path.split('?')[0]} answered ${statusCode}`, statusCode);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RetryableLenderError(`${method} ${path.split('?')[0]} answered malformed JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new RetryableLenderError(`${method} ${path.split('?')[0]} answered an unexpected shape`);
    }
    return parsed.data;
  }
}

function describe(error: unknown): string {
  if (error instanceof undiciErrors.UndiciError) return error.code;
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
