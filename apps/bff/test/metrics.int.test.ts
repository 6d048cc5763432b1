import { afterAll, beforeAll, expect, it } from 'vitest';
import { STEP_ANSWERS, cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { APP_VERSION: '2.3.0-test' } });
});
afterAll(async () => {
  await t.close();
});

it('counts requests by route pattern and status, leads created and steps saved, on /metrics', async () => {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/lead',
    payload: { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' },
  });
  expect(created.statusCode).toBe(201);
  const [step, answer] = STEP_ANSWERS[0]!;
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/lead/steps/${step}`,
    payload: answer,
    headers: { cookie: cookieOf(created) },
  });
  expect(saved.statusCode).toBe(200);

  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  const text = response.body;
  expect(text).toContain('funnel_http_requests_total{method="POST",route="/api/v1/lead",status="201"} 1');
  expect(text).toContain(`funnel_steps_saved_total{step="${step}"} 1`);
  expect(text).toContain('funnel_leads_created_total{source="funnel"} 1');
  expect(text).toContain(
    'funnel_http_request_seconds_bucket{le="0.005",method="PUT",route="/api/v1/lead/steps/:step"}',
  );
  expect(text).toContain('funnel_redis_up 1');
  expect(text).toContain('funnel_sse_connections 0');
  expect(text).toContain(`funnel_build_info{version="2.3.0-test",node="${process.versions.node}"} 1`);
  expect(text).not.toMatch(/route="\/api\/v1\/lead\/steps\/[a-z]/);
});

it('says which build answers on /healthz', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/healthz' });
  expect(response.json()).toEqual({ status: 'ok', version: '2.3.0-test' });
});
