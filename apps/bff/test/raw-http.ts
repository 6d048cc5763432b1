import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from sending the request to the server closing or finishing the answer. */
  ms: number;
}

/**
 * Sends `request` byte for byte on a fresh connection, as a hostile client would (no HTTP library would send most
 * of these), and reads the answer until the server closes or its Content-Length is complete.
 */
export function sendRaw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 3 s; got ${JSON.stringify(received.toString())}`));
    }, 3000);
    const done = () => {
      const text = received.toString();
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return false;
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = text.slice(split + 4);
      const length = Number(headers['content-length'] ?? NaN);
      const head = request.startsWith('HEAD ');
      if (!head && Number.isFinite(length) && Buffer.byteLength(body) < length) return false;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body, ms: performance.now() - started });
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      done();
    });
    socket.on('end', () => {
      if (!done()) reject(new Error(`closed without an answer: ${JSON.stringify(received.toString())}`));
    });
    socket.on('error', (error) => {
      if (!done()) reject(error);
    });
  });
}
