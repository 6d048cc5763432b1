import http from 'node:http';
import { freePort } from '@funnel/testing/processes';

/**
 * A pass-through HTTP proxy in front of the lender sandbox that notes when each upstream lead was first posted
 * and when each of its pings arrived: the worker's poll cadence, seen from the network's side.
 */
export async function startRecordingProxy(target: string) {
  const firstPostAt = new Map<string, number>();
  const pingsAt = new Map<string, number[]>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const now = Date.now();
    const url = new URL(req.url ?? '/', target);
    if (url.pathname.endsWith('/lead/ping/v2')) {
      const id = url.searchParams.get('lead_id') ?? '';
      let list = pingsAt.get(id);
      if (!list) pingsAt.set(id, (list = []));
      list.push(now);
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (answer) => {
          const answerChunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
          answer.on('end', () => {
            const answerBody = Buffer.concat(answerChunks);
            if (url.pathname.endsWith('/lead/send/v2')) {
              const networkId = (JSON.parse(answerBody.toString() || '{}') as { data?: { lead_id?: string } })
                .data?.lead_id;
              if (networkId && !firstPostAt.has(networkId)) firstPostAt.set(networkId, now);
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(answerBody);
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    firstPostAt,
    pingsAt,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
