import WebSocket from 'ws';

export interface MemoryUsage {
  rss: number;
  heapUsed: number;
  external: number;
}

/**
 * Talks to a process started with `--inspect=127.0.0.1:<port>` over the DevTools protocol: forces a full
 * garbage collection and reads its memory, so a memory figure counts what is held, not what the collector has
 * not reached yet. Only the benchmark opens this port, on loopback.
 */
export async function collectAndMeasure(inspectPort: number): Promise<MemoryUsage> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets[0];
  if (!target) throw new Error(`no inspector target on port ${inspectPort}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { value?: unknown } }>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as {
          id?: number;
          result?: { result?: { value?: unknown } };
          error?: unknown;
        };
        if (message.id !== id) return;
        socket.off('message', onMessage);
        if (message.error) reject(new Error(JSON.stringify(message.error)));
        else resolve(message.result ?? {});
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    // Twice: the first pass can leave objects that only the second finds unreachable (weak refs, finalizers).
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const evaluated = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(String(evaluated.result?.value)) as MemoryUsage;
    return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external };
  } finally {
    socket.close();
  }
}
