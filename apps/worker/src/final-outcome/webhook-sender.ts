import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, request } from 'undici';

export interface WebhookSenderOptions {
  /** Deliver to loopback, private and link-local addresses: local runs and tests only. */
  allowPrivateNetworks: boolean;
  connectTimeoutMs: number;
  /** How long a partner may take to answer; a slow receiver counts as a failed attempt and is retried. */
  responseTimeoutMs: number;
}

/**
 * Addresses a webhook must never reach in production: partners choose the URL, and without this a URL naming
 * (or resolving to) an internal address would make the worker call our own network (SSRF).
 */
// Two lists: Node's BlockList matches an IPv4 address against IPv4-mapped IPv6 rules too, so one list holding
// `::ffff:0:0/96` refused every IPv4 address, public ones included.
const NON_PUBLIC_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
}
const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

/** True for an address on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC_V4.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  // Any other IPv4-mapped form (hexadecimal groups) is refused rather than decoded.
  if (/^::ffff:/i.test(address)) return false;
  return !NON_PUBLIC_V6.check(address, 'ipv6');
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A DNS lookup that fails for names resolving to a non-public address, checked at connect time. */
function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      return callback(
        Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'ENOTPUBLIC' }),
        [],
      );
    }
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    const [first] = addresses;
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    return callback(null, first.address, first.family);
  });
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
        ...(options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
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
