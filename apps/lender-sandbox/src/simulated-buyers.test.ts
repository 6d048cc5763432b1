import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LENDER_NETWORK_PATHS } from '@funnel/contracts/lender-network';
import { SandboxBuyersStatsSchema } from '@funnel/contracts/sandbox-buyers';
import {
  SYNC_POST_PATH,
  SyncPostResponseSchema,
  buildSyncPostPayload,
} from '@funnel/contracts/sync-post-network';
import { buildSandbox } from './app.js';
import { STORED_LEAD, manualClock, newLeadId, submissionPayload } from './test-fixtures.js';

const context = {
  tracking: {},
  userIp: '203.0.113.45',
  userAgent: 'sandbox-test',
  webSiteUrl: 'https://www.example.com/ssn',
};

function syncPayload(
  leadId: string,
  key: string,
  minimumPrice: number,
  state = 'TX',
  maxResponseSeconds = 30,
) {
  return buildSyncPostPayload(
    { ...STORED_LEAD, state },
    { ...context, leadId },
    {
      idempotencyKey: key,
      minimumPrice,
      maxResponseSeconds,
    },
  );
}

describe('simulated buyers', () => {
  let app: FastifyInstance;
  const clock = manualClock();

  beforeAll(async () => {
    app = await buildSandbox(
      {
        buyers: [
          { id: 'market', protocol: 'sync-post', seed: 7, latencyMinMs: 0, latencyMaxMs: 0, maxValue: 100 },
          { id: 'slow', protocol: 'sync-post', seed: 7, latencyMinMs: 1500, latencyMaxMs: 1500 },
          {
            id: 'network-tx',
            protocol: 'lead-service',
            seed: 3,
            states: ['TX'],
            soldShare: 1,
            pendingShare: 1,
            pendingMinMs: 5000,
            pendingMaxMs: 5000,
            latencyMinMs: 0,
            latencyMaxMs: 0,
          },
        ],
      },
      { now: clock.now },
    );
  });
  afterAll(() => app.close());

  const post = async (buyer: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url: `/buyers/${buyer}${SYNC_POST_PATH}`, payload });
    expect(response.statusCode).toBe(200);
    return SyncPostResponseSchema.parse(response.json());
  };
  const stats = async () =>
    SandboxBuyersStatsSchema.parse((await app.inject({ method: 'GET', url: '/_sandbox/buyers' })).json())
      .buyers;

  it('sells more often as the price floor falls, at no less than the floor', async () => {
    const leads = Array.from({ length: 150 }, () => newLeadId());
    const soldAt = async (floor: number) => {
      let sold = 0;
      for (const leadId of leads) {
        const answer = await post('market', syncPayload(leadId, `${leadId}-${floor}`, floor));
        if (answer.Result === 'Sold') {
          sold += 1;
          expect(answer.Price).toBeGreaterThanOrEqual(floor);
          expect(answer.RedirectURL).toMatch(/\/buyers\/market\/lender\/offer\//);
        }
      }
      return sold;
    };
    const at80 = await soldAt(80);
    const at20 = await soldAt(20);
    const at0 = await soldAt(0);
    expect(at80).toBeLessThan(at20);
    expect(at20).toBeLessThan(at0);
    const market = (await stats()).find((b) => b.id === 'market')!;
    expect(market.attempts).toBe(450);
    expect(market.repeatedAttempts).toBe(0);
  });

  it('answers a re-posted key with its first answer, as a replay and not a new attempt', async () => {
    const leadId = newLeadId();
    const first = await post('market', syncPayload(leadId, `${leadId}-0`, 0));
    const again = await post('market', syncPayload(leadId, `${leadId}-0`, 0));
    expect(again).toEqual(first);
    const held = await app.inject({ method: 'GET', url: `/buyers/market/_sandbox/attempts/${leadId}-0` });
    expect(held.json()).toEqual({ payload: syncPayload(leadId, `${leadId}-0`, 0), answer: first });
    const unknown = await app.inject({ method: 'GET', url: `/buyers/market/_sandbox/attempts/${leadId}-5` });
    expect(unknown.statusCode).toBe(404);
    const before = (await stats()).find((b) => b.id === 'market')!;
    await post('market', syncPayload(leadId, `${leadId}-9`, 0));
    const after = (await stats()).find((b) => b.id === 'market')!;
    expect(before.replays).toBeGreaterThanOrEqual(1);
    expect(after.repeatedAttempts).toBe(before.repeatedAttempts + 1);
  });

  it('rejects when it cannot answer within MaxResponseTime', async () => {
    const leadId = newLeadId();
    expect((await post('slow', syncPayload(leadId, `${leadId}-0`, 0, 'TX', 1))).Result).toBe('Rejected');
  });

  it('answers a bad payload with field errors in its own names', async () => {
    const { BankRoutingNumber: _, ...payload } = syncPayload(newLeadId(), `${newLeadId()}-0`, 0);
    const answer = await post('market', { ...payload, Zip: 'abc' });
    expect(answer.Result).toBe('Error');
    expect(answer.Errors.map((e) => e.Field).sort()).toEqual(['BankRoutingNumber', 'Zip']);
  });

  it('serves a lead-service buyer on its path, with its own state filter and pending phase', async () => {
    const base = '/buyers/network-tx';
    const inTexas = submissionPayload({}, { state: 'TX' });
    const elsewhere = submissionPayload({}, { state: 'CA' });
    const posted = await app.inject({
      method: 'POST',
      url: `${base}${LENDER_NETWORK_PATHS.submit}`,
      payload: inTexas,
    });
    expect(posted.json()).toMatchObject({ data: { status: 3 } });
    const refused = await app.inject({
      method: 'POST',
      url: `${base}${LENDER_NETWORK_PATHS.submit}`,
      payload: elsewhere,
    });
    expect(refused.json()).toMatchObject({ data: { status: 2 } });
    clock.advance(5000);
    const ping = await app.inject({
      method: 'GET',
      url: `${base}${LENDER_NETWORK_PATHS.ping}`,
      query: { lead_id: (posted.json() as { data: { lead_id: string } }).data.lead_id, checkKey: 'k' },
    });
    expect(ping.json()).toMatchObject({ data: { data: { status: 1 } } });
    const network = (await stats()).find((b) => b.id === 'network-tx')!;
    expect(network).toMatchObject({ attempts: 2, sold: 1, rejected: 1, repeatedAttempts: 0 });
    // The root network is untouched by the buyers.
    const root = await app.inject({ method: 'GET', url: '/_sandbox/stats' });
    expect(root.json()).toMatchObject({ posts: 0 });
  });
});
