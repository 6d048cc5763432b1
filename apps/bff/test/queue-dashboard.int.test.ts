import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-token-for-the-queue-dashboard-test';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_API_TOKEN: TOKEN } });
});
afterAll(async () => {
  await t.close();
});

it('serves bull-board at /admin/queues behind the operator token, read-only by default', async () => {
  const anonymous = await t.app.inject({ method: 'GET', url: '/admin/queues' });
  expect(anonymous.statusCode).toBe(401);
  expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
  const wrong = await t.app.inject({
    method: 'GET',
    url: '/admin/queues',
    headers: { authorization: `Basic ${Buffer.from('op:nope').toString('base64')}` },
  });
  expect(wrong.statusCode).toBe(401);

  const page = await t.app.inject({
    method: 'GET',
    url: '/admin/queues',
    headers: { authorization: `Basic ${Buffer.from(`op:${TOKEN}`).toString('base64')}` },
  });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);

  const api = await t.app.inject({
    method: 'GET',
    url: '/admin/queues/api/queues',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(api.statusCode).toBe(200);
  const queues = api.json().queues as Array<{ name: string; readOnlyMode: boolean }>;
  expect(queues.map((q) => q.name)).toEqual(expect.arrayContaining(['lead-submission', 'reconciler']));
  expect(queues.every((q) => q.readOnlyMode)).toBe(true);
});
