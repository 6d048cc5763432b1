import type { FastifyInstance } from 'fastify';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { STEP_ANSWERS, cookieOf, leadIdOf } from './funnel-answers.js';

export const LANDING = { amount: 1000, loanReason: 'MEDICAL', zipCode: '10001' };
export const SUBMIT = { button: 'REQUEST_FUNDS', consentVersion: CONSENT_VERSION, pagePath: '/ssn' };

/** A visitor who landed and answered `steps` (all by default); returns their session cookie and lead id. */
export async function answeredLead(
  app: FastifyInstance,
  options: {
    landing?: Record<string, unknown>;
    headers?: Record<string, string>;
    steps?: Array<[string, Record<string, unknown>]>;
  } = {},
): Promise<{ cookie: string; id: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/lead',
    payload: options.landing ?? LANDING,
    headers: options.headers,
  });
  if (created.statusCode !== 201) throw new Error(`landing: ${created.body}`);
  const cookie = cookieOf(created);
  for (const [step, answer] of options.steps ?? STEP_ANSWERS) {
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/v1/lead/steps/${step}`,
      payload: answer,
      headers: { cookie },
    });
    if (saved.statusCode !== 200) throw new Error(`${step}: ${saved.body}`);
  }
  return { cookie, id: leadIdOf(cookie) };
}

/** A complete lead, submitted with the consent of `submit`. */
export async function submittedLead(
  app: FastifyInstance,
  options: Parameters<typeof answeredLead>[1] & { submit?: Record<string, unknown> } = {},
): Promise<{ cookie: string; id: string }> {
  const lead = await answeredLead(app, options);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/lead/submit',
    payload: options.submit ?? SUBMIT,
    headers: { ...options.headers, cookie: lead.cookie },
  });
  if (response.statusCode !== 202) throw new Error(`submit: ${response.body}`);
  return lead;
}
