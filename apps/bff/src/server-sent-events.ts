import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Server-sent events (`text/event-stream`), framed in one place for every SSE route: the headers, the `retry`
 * line, each event's `id:`/`event:`/`data:` lines, and one heartbeat timer for all open streams (not one per
 * stream). Streams end when the server shuts down, so browsers reconnect to another instance at once.
 */

/** One event as the stream frames it. `data` is a single line (JSON). */
export interface ServerSentEvent {
  id?: string | number;
  event?: string;
  data: string;
}

export interface EventStream {
  send(event: ServerSentEvent): void;
  /**
   * From now on the stream is kept alive by the heartbeat, and ends (running `cleanup`) when the client leaves
   * or the server shuts down.
   */
  hold(cleanup: () => void): void;
}

const CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 2000;

/** The text of one event. */
export function frameEvent({ id, event, data }: ServerSentEvent): string {
  return `${id === undefined ? '' : `id: ${id}\n`}${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`;
}

/** The open streams of one route plugin and their shared heartbeat. */
export class EventStreams {
  private readonly open = new Map<ServerResponse, () => void>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(heartbeatMs: number) {
    // A comment line keeps each connection (and any proxy on the way) from timing out.
    this.heartbeat = setInterval(() => {
      for (const res of this.open.keys()) res.write(': keep-alive\n\n');
    }, heartbeatMs);
    this.heartbeat.unref();
  }

  /** HEAD (which Fastify routes to a GET too): the stream's headers and no stream. */
  static headOnly(reply: FastifyReply): void {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' });
    reply.raw.end();
  }

  /** Takes the response over and starts the stream: its headers and the reconnection delay. */
  start(request: FastifyRequest, reply: FastifyReply): EventStream {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': CONTENT_TYPE,
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n\n`);
    return {
      send: (event) => res.write(frameEvent(event)),
      hold: (cleanup) => {
        const end = () => {
          cleanup();
          this.open.delete(res);
          res.end();
        };
        this.open.set(res, end);
        request.raw.once('close', end);
      },
    };
  }

  /** Stops the heartbeat and ends every open stream (the server is shutting down). */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const end of this.open.values()) end();
  }
}
