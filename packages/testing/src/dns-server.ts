// A DNS server on the loopback (UDP, RFC 1035's wire format) that answers from a table a test gives it: the
// resolver the product is pointed at in tests, so a lookup crosses a real socket and a real parser (c-ares).
import { createSocket, type RemoteInfo } from 'node:dgram';

/** What a name answers: its mail exchangers, its addresses, or nothing at all (held past the resolver's timeout). */
export interface DnsZone {
  mx?: Array<{ priority: number; exchange: string }>;
  a?: string[];
  silent?: boolean;
}

export interface DnsServer {
  /** `127.0.0.1:<port>`, as a resolver's server list takes it. */
  address: string;
  /** The questions asked so far, as `<name> <type>`. */
  questions: string[];
  close(): Promise<void>;
}

const TYPE = { A: 1, MX: 15 } as const;
const TYPE_NAMES: Record<number, string> = { 1: 'A', 15: 'MX', 28: 'AAAA' };
const NXDOMAIN = 3;

/**
 * Answers each name in `zones` (lower case, no trailing dot); a name not there is NXDOMAIN, a name with no record
 * of the asked type answers no records (NODATA).
 */
export async function startDnsServer(zones: Record<string, DnsZone>): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (query: Buffer, peer: RemoteInfo) => {
    const { name, type, end } = readQuestion(query);
    questions.push(`${name} ${TYPE_NAMES[type] ?? type}`);
    const zone = zones[name];
    if (zone?.silent) return;
    const answers = zone ? records(zone, type) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // QR, the query's opcode and RD, RA; RCODE NXDOMAIN for a name we do not know.
    header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x7900) | 0x0080 | (zone ? 0 : NXDOMAIN), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at] !== 0) {
    const length = query[at]!;
    labels.push(query.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  const type = query.readUInt16BE(at + 1);
  return { name: labels.join('.').toLowerCase(), type, end: at + 5 };
}

function records(zone: DnsZone, type: number): Buffer[] {
  if (type === TYPE.MX) {
    return (zone.mx ?? []).map(({ priority, exchange }) => {
      const preference = Buffer.alloc(2);
      preference.writeUInt16BE(priority);
      return record(TYPE.MX, Buffer.concat([preference, encodeName(exchange)]));
    });
  }
  if (type === TYPE.A) {
    return (zone.a ?? []).map((ip) => record(TYPE.A, Buffer.from(ip.split('.').map(Number))));
  }
  return [];
}

/** One answer for the question's name (a pointer to offset 12), class IN, a minute's TTL. */
function record(type: number, data: Buffer): Buffer {
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(1, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}

function encodeName(name: string): Buffer {
  const parts = name.split('.').filter(Boolean);
  return Buffer.concat([
    ...parts.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')])),
    Buffer.from([0]),
  ]);
}
