// A bad build for sse-connections (BENCH_SABOTAGE=sse-connections): preloaded into the product BFF only
// (`node --import`, run by Node's type stripping), it makes every event-stream response hold a 64 KiB buffer
// of non-zero bytes (so its pages are resident and count in RSS) for as long as the stream is open, as a
// per-stream buffer allocated up front and never sized down would. Never imported by a benchmark: it patches
// `node:http` in the process that loads it.
import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';

/** What each open event stream holds. */
const HELD_BYTES = 64 * 1024;

const held = new Map<ServerResponse, Buffer>();

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
    held.set(this, Buffer.alloc(HELD_BYTES, 0xa5));
    this.once('close', () => held.delete(this));
  }
  return Reflect.apply(writeHead, this, args) as ServerResponse;
} as typeof writeHead;
