import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuyerSchema } from '@funnel/contracts/buyers';
import { SandboxLeadSchema } from '@funnel/contracts/lender-sandbox';
import { SAMPLE_SUBMISSION_CONTEXT as context } from '@funnel/contracts/sample-lead';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { startBuyersSandbox, storedSampleLead } from './waterfall-fixture.js';

const golden = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../packages/contracts/src/__golden__/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const lead = storedSampleLead();

/** What each adapter puts on the wire, as the sandbox's buyers received it, against the reviewed golden payloads. */
describe('buyer adapters on the wire', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

  beforeAll(async () => {
    sandbox = await startBuyersSandbox([
      {
        id: 'market',
        protocol: 'sync-post',
        seed: 1,
        interestShare: 1,
        maxValue: 500,
        latencyMinMs: 0,
        latencyMaxMs: 0,
      },
      {
        id: 'network',
        protocol: 'lead-service',
        seed: 2,
        soldShare: 1,
        pendingShare: 1,
        latencyMinMs: 0,
        latencyMaxMs: 0,
      },
    ]);
  });
  afterAll(() => sandbox.process.stop());

  it('sync-post: the golden payload with the attempt key, floor and whole seconds; the sale and its price', async () => {
    const adapter = createBuyerAdapter(
      BuyerSchema.parse({
        id: 'market',
        protocol: 'sync-post',
        baseUrl: sandbox.buyerUrl('market'),
        tier: 1,
        priceLadder: [80, 50],
      }),
    );
    const key = `${context.leadId}-2`;
    // 25.6 s of budget: 25 whole seconds once the way back is kept aside.
    const answer = await adapter.post(lead, { key, floor: 50, budgetMs: 25_600 });
    await adapter.close();
    const held = (await (await fetch(`${sandbox.buyerUrl('market')}/_sandbox/attempts/${key}`)).json()) as {
      payload: unknown;
      answer: { Result: string; Price?: number };
    };
    expect(held.payload).toStrictEqual(golden('sync-post-payload.json'));
    expect(answer.kind).toBe(held.answer.Result === 'Sold' ? 'sold' : 'rejected');
    if (answer.kind === 'sold') expect(answer.price).toBe(held.answer.Price);
  });

  it('lead-service: the golden payload with the attempt key as partnerLeadId, then pending', async () => {
    const adapter = createBuyerAdapter(
      BuyerSchema.parse({
        id: 'network',
        protocol: 'lead-service',
        baseUrl: sandbox.buyerUrl('network'),
        tier: 1,
        price: 30,
      }),
    );
    const key = `${context.leadId}-0`;
    const answer = await adapter.post(lead, { key, floor: undefined, budgetMs: 5000 });
    await adapter.close();
    const held = SandboxLeadSchema.parse(
      await (await fetch(`${sandbox.buyerUrl('network')}/_sandbox/leads/${key}`)).json(),
    );
    expect(held.payload).toStrictEqual({ ...golden('submission-payload.json'), partnerLeadId: key });
    expect(answer).toEqual({
      kind: 'pending',
      pending: { upstreamLeadId: held.networkLeadId, checkKey: key },
    });
  });

  it('lead-service: a sale without an address is a sale at the contract price (docs/product-rules.md §lender-network-answers)', async () => {
    const url = sandbox.buyerUrl('network');
    const configured = await fetch(`${url}/_sandbox/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pendingShare: 0, soldRedirect: false }),
    });
    expect(configured.status).toBe(200);
    const adapter = createBuyerAdapter(
      BuyerSchema.parse({ id: 'network', protocol: 'lead-service', baseUrl: url, tier: 1, price: 30 }),
    );
    const answer = await adapter.post(lead, { key: `${context.leadId}-1`, floor: undefined, budgetMs: 5000 });
    await adapter.close();
    expect(answer).toMatchObject({ kind: 'sold', price: 30 });
    expect(answer).not.toHaveProperty('redirectUrl');
  });
});
