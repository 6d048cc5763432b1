import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the product's outbound calls may go (SSRF): partners choose webhook addresses, and an admin a buyer's.
 * Without a check, a URL naming (or resolving to) an internal address makes a worker call our own network:
 * loopback, link-local (the cloud's metadata service), private ranges. Such an address is reached only when an
 * allow-list (a setting) names its range: the sandbox on loopback in local runs and tests, a compose network.
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
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4-mapped IPv6 address in dotted form (`::ffff:10.0.0.1`) as its IPv4 address; any other as it is. */
function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

/** True for an address on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  if (family === 4) return !NON_PUBLIC_V4.check(plain, 'ipv4');
  if (family !== 6) return false;
  // Any other IPv4-mapped form (hexadecimal groups) is refused rather than decoded.
  if (/^::ffff:/i.test(plain)) return false;
  return !NON_PUBLIC_V6.check(plain, 'ipv6');
}

/**
 * The non-public ranges a setting lets calls reach (`127.0.0.0/8`, `::1/128`, or one address), and whether an
 * address is in one of them. Unparseable entries are the setting's schema's to refuse ({@link isAddressRange}).
 */
export class AddressAllowList {
  readonly #v4 = new BlockList();
  readonly #v6 = new BlockList();

  constructor(readonly ranges: readonly string[]) {
    for (const range of ranges) {
      const [network = '', prefix] = range.split('/');
      const family = isIP(network);
      if (family === 0) throw new Error(`not an address range: ${range}`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      (family === 4 ? this.#v4 : this.#v6).addSubnet(
        network,
        prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix),
        type,
      );
    }
  }

  /** Whether `address` is one a call may reach: public, or in an allowed range. */
  allows(address: string): boolean {
    if (isPublicAddress(address)) return true;
    const plain = unmapped(address);
    const family = isIP(plain);
    if (family === 4) return this.#v4.check(plain, 'ipv4');
    return family === 6 && this.#v6.check(plain, 'ipv6');
  }
}

/** Whether `entry` is an address range {@link AddressAllowList} reads: an address, with an optional prefix length. */
export function isAddressRange(entry: string): boolean {
  const [network = '', prefix, extra] = entry.split('/');
  const family = isIP(network);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** The host of a URL as an address or a name (an IPv6 literal without its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The error a call to a refused address fails with (`code` ENOTPUBLIC), before any connection is made. */
function addressRefused(host: string, address: string): NodeJS.ErrnoException {
  const shown = host === address ? address : `${host} (${address})`;
  return Object.assign(new Error(`${shown} is not a public address, nor in an allowed range`), {
    code: 'ENOTPUBLIC',
  });
}

/**
 * The addresses `host` stands for (itself when it is an address), each with whether a call may reach it; for
 * a check made before a call (a buyer's address when it is set). The call itself checks again at connect time
 * ({@link guardedLookup}): a name can point elsewhere by then.
 */
export async function refusedAddressOf(host: string, allowed: AddressAllowList): Promise<string | undefined> {
  const addresses = isIP(host) ? [host] : (await dnsLookupAll(host, { all: true })).map((a) => a.address);
  return addresses.find((address) => !allowed.allows(address));
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup for a connection (undici's `connect.lookup`) that fails with ENOTPUBLIC for a name resolving to
 * an address `allowed` does not allow (default: public addresses only): checked when the connection is made, so
 * a name cannot be pointed inside after it was checked. Node does not look up an address, so a URL naming one
 * is checked before the call instead.
 */
export function guardedLookup(allowed = new AddressAllowList([])) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !allowed.allows(entry.address));
      if (refused) return callback(addressRefused(hostname, refused.address), []);
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const [first] = addresses;
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      return callback(null, first.address, first.family);
    });
  };
}
