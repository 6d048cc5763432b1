// Baseline for the lookup: a bare Fastify 5 route answering a ZIP from an in-memory map, with no hooks, no
// plugins and no limiter. The answer body is the product's own, passed in by the benchmark.
import Fastify from 'fastify';

const places = new Map<string, unknown>(Object.entries(JSON.parse(process.env.ZIP_PLACES ?? '{}')));
const app = Fastify();
app.get('/ready', async () => ({ ok: true }));
app.get<{ Params: { zip: string } }>('/lookup/zip/:zip', async (request, reply) => {
  const place = places.get(request.params.zip);
  return place ?? reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
