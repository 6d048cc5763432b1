// Bad builds for the event-stream benchmarks, preloaded into the product BFF only (`node --import <this file>?<mode>`,
// run by Node's type stripping); the mode is the import's query:
// - `?leak` (BENCH_SABOTAGE=sse-connections): every event-stream response holds a 64 KiB buffer of non-zero bytes
//   (its pages resident, so they count in RSS) for as long as it is open, as a per-stream buffer allocated up front
//   and never sized down would;
// - `?late` (BENCH_SABOTAGE=sse-latency): every write to an event stream waits 25 ms before it goes out, in order,
//   as a server that flushes its streams on a timer would.
// Never imported by a benchmark: it patches `node:http` in the process that loads it.
import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';

const mode = new URL(import.meta.url).search.slice(1);
if (mode !== 'leak' && mode !== 'late')
  throw new Error(`event-streams sabotage: no mode "${mode}" (leak, late)`);

/** What each open event stream holds (`leak`), and how long each of its writes waits (`late`). */
const HELD_BYTES = 64 * 1024;
const HELD_MS = 25;

const held = new Map<ServerResponse, Buffer | true>();

/** `writeHead(status, headers)` or `writeHead(status, statusMessage, headers)`: a text/event-stream response? */
function startsEventStream(args: readonly unknown[]): boolean {
  const headers = args.find((arg): arg is OutgoingHttpHeaders => typeof arg === 'object' && arg !== null);
  if (headers === undefined || Array.isArray(headers)) return false;
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return String(type).startsWith('text/event-stream');
}

const writeHead = ServerResponse.prototype.writeHead;
ServerResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
  if (startsEventStream(args) && !held.has(this)) {
    held.set(this, mode === 'leak' ? Buffer.alloc(HELD_BYTES, 0xa5) : true);
    this.once('close', () => held.delete(this));
  }
  return Reflect.apply(writeHead, this, args) as ServerResponse;
} as typeof writeHead;

if (mode === 'late') {
  const write = ServerResponse.prototype.write;
  ServerResponse.prototype.write = function (this: ServerResponse, ...args: unknown[]) {
    if (!held.has(this)) return Reflect.apply(write, this, args) as boolean;
    setTimeout(() => {
      if (!this.destroyed) Reflect.apply(write, this, args);
    }, HELD_MS);
    return true;
  } as typeof write;
}
