// Baseline for the step save: a bare Fastify 5 route validating the same zod body as the product's name step,
// then one HSET. No cookie, no hooks, no plugins: the least a step save can cost.
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { STEP_SCHEMAS } from '@funnel/contracts/steps';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const app = Fastify();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);

app.get('/ready', async () => ({ ok: true }));
app.put('/steps/lgname', { schema: { body: STEP_SCHEMAS.lgname } }, async (request) => {
  const body = request.body as { firstName: string; lastName: string };
  await redis.hset('bench:bare-lead', 'first_name', body.firstName, 'last_name', body.lastName);
  return { nextStep: 'email' };
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
