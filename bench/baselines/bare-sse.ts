// Baseline for the event stream: a bare Fastify 5 route that hijacks the response and holds it open with a
// keep-alive comment, like the product's; outcomes published on Redis are relayed to the lead's connections
// as they come, with no read-back and no validation.
import Fastify from 'fastify';
import { Redis } from 'ioredis';

const HEARTBEAT_MS = 15_000;
const listeners = new Map<string, Set<(data: string) => void>>();
const subscriber = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
await subscriber.subscribe(process.env.CHANNEL ?? 'bench:bare-outcomes');
subscriber.on('message', (_channel, message) => {
  const { leadId } = JSON.parse(message) as { leadId: string };
  for (const send of listeners.get(leadId) ?? []) send(message);
});

const app = Fastify();
app.get('/ready', async () => ({ ok: true }));
app.get<{ Params: { leadId: string } }>('/events/:leadId', (request, reply) => {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
  res.write('retry: 2000\n\n');
  const { leadId } = request.params;
  let set = listeners.get(leadId);
  if (!set) listeners.set(leadId, (set = new Set()));
  const send = (data: string) => res.write(`event: outcome\ndata: ${data}\n\n`);
  set.add(send);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  request.raw.once('close', () => {
    clearInterval(heartbeat);
    set.delete(send);
    if (set.size === 0) listeners.delete(leadId);
  });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
