/**
 * Lead traffic for the suites that run the product as a whole (the fault suite, the compose end-to-end test):
 * a distinct fictitious borrower per lead, a funnel lead walked through every step and submitted, a partner lead
 * posted under an idempotency key, and the outcome read off the lead's event stream. Each call retries what a
 * real client would retry (5xx, 409 in progress, 429, a dropped connection), so a restart under traffic is judged
 * by what is lost, not by one refused request.
 */
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { OUTCOME_EVENT, type LeadOutcome } from '@funnel/contracts/lead-outcome';
import { STEPS } from '@funnel/contracts/steps';
import { partnerLeadBody } from './partner-lead.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The partner example's answers ({@link partnerLeadBody}) for borrower number `n`, with its own SSN and email (the
 * BFF refuses a borrower twice). Without a webhook address unless `webhookUrl` is given.
 */
export function borrowerLead(n: number, webhookUrl?: string): Record<string, unknown> {
  return {
    ...partnerLeadBody(),
    ...(webhookUrl ? { webhookUrl } : {}),
    // Area 100–599 and group 10–99 make each of the first 45,000 borrowers distinct; the serial stays 1–9999
    // however many there are (a failover run's retries passed 9,000 and made a five-digit serial).
    socialSecurityNumber: `${100 + (n % 500)}-${String(10 + (Math.floor(n / 500) % 90)).padStart(2, '0')}-${String(1 + (n % 9999)).padStart(4, '0')}`,
    email: `borrower.${n}@example.com`,
  };
}

/** Posts a partner lead until it is accepted (202) and returns its lead id; a 4xx other than 409/429 throws. */
export async function sendPartnerLead(options: {
  baseUrl: string;
  apiKey: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
  /** How many tries, 500 ms apart (default 200). */
  attempts?: number;
}): Promise<string> {
  const body = JSON.stringify(options.body);
  for (let attempt = 0; attempt < (options.attempts ?? 200); attempt += 1) {
    const response = await fetch(`${options.baseUrl}/api/v1/partner/leads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': options.idempotencyKey,
      },
      body,
    }).catch(() => undefined);
    if (response?.status === 202) return ((await response.json()) as { leadId: string }).leadId;
    if (response && response.status < 500 && response.status !== 409 && response.status !== 429) {
      throw new Error(`partner post answered ${response.status}: ${await response.text()}`);
    }
    const retryAfter = Number(response?.headers.get('retry-after') ?? 0);
    await sleep(retryAfter > 0 ? retryAfter * 1000 : 500);
  }
  throw new Error('partner post never accepted');
}

/**
 * A visitor's lead: created, every step of the wizard saved with the borrower's answers, then submitted. Returns
 * its id and the session cookie (for its event stream). A failed walk starts over with a new lead.
 */
export async function walkFunnelLead(
  baseUrl: string,
  body: Record<string, unknown>,
  /**
   * How long a walk keeps starting over (a Redis failover refuses writes until its replica is back), and a signal
   * that ends the retries sooner (the traffic stops).
   */
  options: { retryForMs?: number; signal?: AbortSignal } = {},
): Promise<{ leadId: string; cookie: string }> {
  const giveUpAt = Date.now() + (options.retryForMs ?? 25_000);
  for (;;) {
    try {
      const lead = await answerFunnelLead(baseUrl, body);
      await submitFunnelLead(baseUrl, lead.cookie);
      return lead;
    } catch (error) {
      if (Date.now() >= giveUpAt || options.signal?.aborted) throw error;
      await sleep(500);
    }
  }
}

/**
 * A visitor's lead created and every step saved with the borrower's answers, not yet submitted: its id and
 * session cookie. Throws at the first refused or failed request; `send` makes each request (`fetch` unless a caller
 * retries its own way).
 */
export async function answerFunnelLead(
  baseUrl: string,
  body: Record<string, unknown>,
  send: (url: string, init: RequestInit) => Promise<Response> = fetch,
): Promise<{ leadId: string; cookie: string }> {
  const created = await send(`${baseUrl}/api/v1/lead`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: body.amount, loanReason: body.loanReason, zipCode: body.zipCode }),
  });
  if (created.status !== 201) throw new Error(`create ${created.status}`);
  const cookie = created.headers.getSetCookie()[0]!.split(';')[0]!;
  for (const step of STEPS) {
    const answer = Object.fromEntries(step.fields.filter((f) => f in body).map((f) => [f, body[f]]));
    const saved = await send(`${baseUrl}/api/v1/lead/steps/${step.name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(answer),
    });
    if (saved.status !== 200) throw new Error(`step ${step.name} ${saved.status} ${await saved.text()}`);
  }
  return { leadId: decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!, cookie };
}

/**
 * Presses the consent page's button for the session's lead until it is accepted, as the page does on a 5xx or a
 * dropped connection (`attempts` tries, `pauseMs` apart); a 4xx throws.
 */
export async function submitFunnelLead(
  baseUrl: string,
  cookie: string,
  options: { attempts?: number; pauseMs?: number } = {},
): Promise<void> {
  for (let i = 0; i < (options.attempts ?? 50); i += 1) {
    const submitted = await fetch(`${baseUrl}/api/v1/lead/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        button: 'REQUEST_CASH',
        consentVersion: CONSENT_VERSION,
        pagePath: '/apply/consent',
      }),
    }).catch(() => undefined);
    if (submitted && submitted.status < 300) return;
    if (submitted && submitted.status < 500) {
      throw new Error(`submit ${submitted.status} ${await submitted.text()}`);
    }
    await sleep(options.pauseMs ?? 500);
  }
  throw new Error('submit never accepted');
}

/**
 * Reads the lead's event stream (`GET /api/v1/lead/events`, as the outcome page does) until an outcome other than
 * pending arrives, and returns it. Throws after `timeoutMs`.
 */
export async function awaitOutcomeEvent(
  baseUrl: string,
  cookie: string,
  timeoutMs: number,
): Promise<LeadOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  const response = await fetch(`${baseUrl}/api/v1/lead/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal,
  });
  if (response.status !== 200) throw new Error(`event stream answered ${response.status}`);
  let buffer = '';
  for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const data = lines.find((line) => line.startsWith('data: '));
      if (!lines.includes(`event: ${OUTCOME_EVENT}`) || !data) continue;
      const outcome = JSON.parse(data.slice('data: '.length)) as LeadOutcome;
      if (outcome.outcome !== 'pending') {
        await response.body!.cancel().catch(() => undefined);
        return outcome;
      }
    }
  }
  throw new Error('event stream ended before an outcome');
}
