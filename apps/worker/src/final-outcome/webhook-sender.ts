import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { guardedLookup, isPublicAddress } from '@funnel/server-runtime/network-address';

export interface WebhookSenderOptions {
  /** Deliver to loopback, private and link-local addresses: local runs and tests only. */
  allowPrivateNetworks: boolean;
  connectTimeoutMs: number;
  /** How long a partner may take to answer; a slow receiver counts as a failed attempt and is retried. */
  responseTimeoutMs: number;
}

/** Raised when a webhook address may not be called at all; retrying cannot help. */
export class WebhookAddressRefusedError extends Error {
  override readonly name = 'WebhookAddressRefusedError';
}

/**
 * POSTs webhook bodies with undici over keep-alive connections. Redirects are not followed (a 3xx counts as
 * a failed delivery), and in production only public addresses are reached, whether the URL names an IP or a
 * host name (checked on the resolved addresses, so DNS cannot point us inside).
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = new Agent({
      connect: {
        timeout: options.connectTimeoutMs,
        ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup() }),
      },
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
    });
  }

  /**
   * Posts `body` to `url`; resolves with the HTTP status whatever it is, rejects on network errors and
   * timeouts, and with {@link WebhookAddressRefusedError} for an address that may never be called.
   */
  async post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    return this.send('POST', url, { 'content-type': 'application/json', ...headers }, body);
  }

  /** GETs `url` (an affiliate postback), on the same terms as {@link post}. */
  async get(url: string, headers: Record<string, string>): Promise<number> {
    return this.send('GET', url, headers);
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<number> {
    const response = await request(this.checked(url), {
      method,
      dispatcher: this.agent,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    // The answer's body means nothing to us; reading it frees the connection for the next delivery.
    await response.body.dump();
    return response.statusCode;
  }

  /** `url` as a URL, if it may be called at all. */
  private checked(url: string): URL {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (
      !this.options.allowPrivateNetworks &&
      (target.protocol !== 'https:' || (isIP(host) && !isPublicAddress(host)))
    ) {
      throw new WebhookAddressRefusedError(`address ${target.origin} is not a public https address`);
    }
    return target;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
