import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SubmitResponseSchema } from '@funnel/contracts/lender-network';
import { postLead, submissionPayload, testSandbox } from '../test-fixtures.js';
import { DECLINED_PAGE_HEADING, OFFER_PAGE_HEADING } from './lender-pages.js';

let app: FastifyInstance;
afterEach(() => app.close());

/** The path part of an address the sandbox handed out. */
const pathOf = (address: string | undefined) => new URL(address ?? 'http://invalid/').pathname;

describe('lender pages', () => {
  it('the sold redirect leads to "You have arrived at the lender" with the amount', async () => {
    app = await testSandbox();
    const payload = submissionPayload({ testMode: true, testSold: true }, { loan_amount: 3000 });
    const { redirect_url } = SubmitResponseSchema.parse((await postLead(app, payload)).json());

    const page = await app.inject(pathOf(redirect_url));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<title>${OFFER_PAGE_HEADING}</title>`);
    expect(page.body).toContain(`<h1>${OFFER_PAGE_HEADING}</h1>`);
    expect(OFFER_PAGE_HEADING).toBe('You have arrived at the lender');
    expect(page.body).toContain('$3,000');
  });

  it('the reject address leads to the declined page', async () => {
    app = await testSandbox();
    const payload = submissionPayload({ testMode: true, testSold: false });
    const { rejectUrl } = SubmitResponseSchema.parse((await postLead(app, payload)).json());

    const page = await app.inject(pathOf(rejectUrl));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>${DECLINED_PAGE_HEADING}</h1>`);
    expect(page.body).toContain('$1,000');
  });

  it('has no offer page for an unknown or unsold lead', async () => {
    app = await testSandbox();
    const { data } = SubmitResponseSchema.parse(
      (await postLead(app, submissionPayload({ testMode: true, testSold: false }))).json(),
    );
    expect((await app.inject('/lender/offer/unknown-lead')).statusCode).toBe(404);
    expect((await app.inject(`/lender/offer/${data.lead_id}`)).statusCode).toBe(404);
    expect((await app.inject('/lender/declined/unknown-lead')).statusCode).toBe(404);
  });
});
