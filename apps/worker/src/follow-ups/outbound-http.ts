import { Agent, request } from 'undici';
import { UnrecoverableError } from 'bullmq';

export interface OutboundHttpOptions {
  connectTimeoutMs: number;
  /** How long a service may take to start answering, and between body chunks. */
  responseTimeoutMs: number;
}

/**
 * A call to a third-party service that did not succeed. `retryable` for network errors, timeouts, 429 and 5xx
 * (a passing fault on their side: BullMQ retries with backoff); final for any other status (they refused this
 * request, and the same request will be refused again). The message names the service and status only: never a
 * response body, which may echo the personal data we sent.
 */
export class OutboundCallError extends Error {
  override readonly name = 'OutboundCallError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/**
 * JSON POSTs to the services the worker feeds (mailing list, cross-sell partner, TrustedForm), over one
 * keep-alive agent with connect and response timeouts. Redirects are never followed: a credential meant for one
 * host must not travel to another.
 */
export class OutboundHttp {
  private readonly agent: Agent;

  constructor(options: OutboundHttpOptions) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  /**
   * POSTs `body` as JSON; resolves with the parsed answer (undefined when empty or not JSON) on 2xx, throws an
   * {@link OutboundCallError} otherwise. `service` names the call in errors and logs.
   */
  async postJson(
    service: string,
    url: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ statusCode: number; json: unknown }> {
    let statusCode: number;
    let text: string;
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const code = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.name) : 'error';
      throw new OutboundCallError(`${service}: ${code}`, true);
    }
    if (statusCode < 200 || statusCode >= 300) {
      const retryable = statusCode === 429 || statusCode >= 500;
      throw new OutboundCallError(`${service} answered ${statusCode}`, retryable, statusCode);
    }
    return { statusCode, json: parseJson(text) };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What BullMQ should do after a failed call: a final refusal stops the job (`UnrecoverableError`, no retry);
 * anything else is thrown as it is, so the job is retried with its backoff.
 */
export function failJob(error: unknown): never {
  if (error instanceof OutboundCallError && !error.retryable) throw new UnrecoverableError(error.message);
  throw error;
}
