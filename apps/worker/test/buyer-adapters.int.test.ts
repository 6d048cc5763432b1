import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuyerSchema } from '@funnel/contracts/buyers';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { LENDER_NETWORK_PATHS } from '@funnel/contracts/lender-network';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT as context } from '@funnel/contracts/sample-lead';
import { SYNC_POST_PATH } from '@funnel/contracts/sync-post-network';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import { createBuyerAdapter } from '../src/buyer-adapters.js';

const golden = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../packages/contracts/src/__golden__/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

/** The sample lead as the worker reads it from the store. */
const lead = {
  id: context.leadId,
  fields: SAMPLE_LEAD,
  tracking: context.tracking,
  consent: {
    version: CONSENT_VERSION,
    textSha256: 'a'.repeat(64),
    button: 'REQUEST_FUNDS',
    at: '2026-11-25T01:00:00.000Z',
    ip: context.userIp,
    userAgent: context.userAgent,
    pageUrl: context.webSiteUrl,
  },
} as unknown as LeadRecord;

/**
 * What each adapter puts on the wire, byte for byte, compared with the reviewed golden payloads: a server that
 * records the request and answers as the protocol says.
 */
describe('buyer adapters on the wire', () => {
  const received: { path: string; headers: Record<string, unknown>; body: unknown }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
        response.setHeader('content-type', 'application/json');
        response.end(
          request.url?.endsWith(SYNC_POST_PATH)
            ? JSON.stringify({
                Result: 'Error',
                Errors: [{ Field: 'BankRoutingNumber', Value: '1', Description: 'Bad' }],
              })
            : JSON.stringify({ data: { status: 3, lead_id: 'NET-1' } }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sync-post: the golden payload with the attempt key, floor and seconds; field errors mapped back', async () => {
    const buyer = BuyerSchema.parse({
      id: 'market',
      protocol: 'sync-post',
      baseUrl: `${base}/buyers/market`,
      apiKey: 'secret-key',
      tier: 1,
      priceLadder: [80, 50],
    });
    const adapter = createBuyerAdapter(buyer);
    // 25.6 s of budget: 25 whole seconds once the way back is kept aside.
    const answer = await adapter.post(lead, { key: `${context.leadId}-2`, floor: 50, budgetMs: 25_600 });
    await adapter.close();
    const request = received.at(-1)!;
    expect(request.path).toBe(`/buyers/market${SYNC_POST_PATH}`);
    expect(request.headers.authorization).toBe('Bearer secret-key');
    expect(request.body).toStrictEqual(golden('sync-post-payload.json'));
    expect(answer).toEqual({
      kind: 'invalid',
      fieldErrors: [{ field: 'bank_aba', buyerField: 'BankRoutingNumber', description: 'Bad' }],
    });
  });

  it('lead-service: the golden payload with the attempt key as partnerLeadId; pending is pinged later', async () => {
    const buyer = BuyerSchema.parse({
      id: 'network',
      protocol: 'lead-service',
      baseUrl: `${base}/buyers/network`,
      tier: 1,
      price: 30,
    });
    const adapter = createBuyerAdapter(buyer);
    const answer = await adapter.post(lead, { key: `${context.leadId}-0`, floor: undefined, budgetMs: 5000 });
    await adapter.close();
    const request = received.at(-1)!;
    expect(request.path).toBe(`/buyers/network${LENDER_NETWORK_PATHS.submit}`);
    expect(request.body).toStrictEqual({
      ...golden('submission-payload.json'),
      partnerLeadId: `${context.leadId}-0`,
    });
    expect(answer).toEqual({
      kind: 'pending',
      pending: { upstreamLeadId: 'NET-1', checkKey: `${context.leadId}-0` },
    });
  });
});
