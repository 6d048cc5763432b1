import http from 'node:http';

export interface EventStream {
  /** Calls `listener` with the arrival time of each `outcome` event. */
  onOutcome(listener: (receivedAt: number, data: string) => void): void;
  /** True once the server ended the stream or the connection broke, i.e. not by {@link close}. */
  readonly dropped: boolean;
  close(): void;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** Opens a server-sent event stream and resolves once its first bytes arrive (the connection is held). */
export function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const listeners: Array<(receivedAt: number, data: string) => void> = [];
    const request = http.get(url, { agent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`event stream answered ${res.statusCode}`));
        return;
      }
      let buffer = '';
      let opened = false;
      let closing = false;
      let dropped = false;
      // Without this a stream the server drops goes unseen, and a benchmark would count it as held.
      res.on('close', () => {
        if (!opened) reject(new Error('event stream closed before its first bytes'));
        else if (!closing) dropped = true;
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const receivedAt = performance.now();
        if (!opened) {
          opened = true;
          resolve({
            onOutcome: (listener) => listeners.push(listener),
            get dropped() {
              return dropped;
            },
            close: () => {
              closing = true;
              request.destroy();
            },
          });
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!/^event: outcome$/m.test(message)) continue;
          const data = /^data: (.*)$/m.exec(message)?.[1] ?? '';
          for (const listener of listeners) listener(receivedAt, data);
        }
      });
    });
    // After the first bytes the promise is settled: a broken connection shows as `dropped` (the close above).
    request.on('error', reject);
  });
}

/** Opens `count` streams, `concurrency` at a time. */
export async function openEventStreams<T = EventStream>(
  count: number,
  open: (i: number) => Promise<T>,
  concurrency = 200,
): Promise<T[]> {
  const streams: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        streams[i] = await open(i);
      }
    }),
  );
  return streams;
}
