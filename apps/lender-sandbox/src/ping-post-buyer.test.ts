import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  BidResponseSchema,
  PING_POST_PATHS,
  PostResponseSchema,
  buildPingPayload,
  buildPostPayload,
} from '@funnel/contracts/ping-post-network';
import { SandboxBuyersStatsSchema, SandboxPingRecordingSchema } from '@funnel/contracts/sandbox-buyers';
import { buildSandbox } from './app.js';
import { STORED_LEAD, manualClock, newLeadId } from './test-fixtures.js';

const context = {
  tracking: {},
  userIp: '203.0.113.45',
  userAgent: 'sandbox-test',
  webSiteUrl: 'https://www.example.com/ssn',
};

const pingOf = (pingId: string, lead = STORED_LEAD, maxResponseMs = 500) =>
  buildPingPayload(lead, {}, { pingId, maxResponseMs, today: '2025-06-20' });

describe('simulated ping/post buyers', () => {
  let app: FastifyInstance;
  const clock = manualClock();

  beforeAll(async () => {
    app = await buildSandbox(
      {
        buyers: [
          // Bids high, accepts few posts; bids low, accepts them all.
          {
            id: 'high-bidder',
            protocol: 'ping-post',
            seed: 11,
            bidRate: 1,
            bidMin: 60,
            bidMax: 80,
            acceptShare: 0.2,
            bidTtlMs: 2000,
            latencyMinMs: 0,
            latencyMaxMs: 0,
          },
          {
            id: 'steady',
            protocol: 'ping-post',
            seed: 12,
            bidRate: 0.5,
            bidMin: 20,
            bidMax: 30,
            acceptShare: 1,
            states: ['TX'],
            latencyMinMs: 0,
            latencyMaxMs: 0,
          },
          { id: 'slow', protocol: 'ping-post', seed: 13, bidRate: 1, latencyMinMs: 800, latencyMaxMs: 800 },
          {
            id: 'b-or-better',
            protocol: 'ping-post',
            seed: 14,
            bidRate: 1,
            minQualityBand: 'B',
            latencyMaxMs: 0,
          },
        ],
      },
      { now: clock.now },
    );
  });
  afterAll(() => app.close());

  const call = async (buyer: string, endpoint: 'ping' | 'post', payload: object) =>
    app.inject({ method: 'POST', url: `/buyers/${buyer}${PING_POST_PATHS[endpoint]}`, payload });
  const ping = async (buyer: string, payload: object) => {
    const response = await call(buyer, 'ping', payload);
    expect(response.statusCode).toBe(200);
    return BidResponseSchema.parse(response.json());
  };
  const post = async (buyer: string, payload: object) => {
    const response = await call(buyer, 'post', payload);
    expect(response.statusCode).toBe(200);
    return PostResponseSchema.parse(response.json());
  };
  const recording = async (buyer: string) =>
    SandboxPingRecordingSchema.parse(
      (await app.inject({ method: 'GET', url: `/buyers/${buyer}/_sandbox/pings` })).json(),
    );
  /** Pings a new lead and returns its bid, the fields it was made on and the lead's id. */
  const bidFor = async (buyer: string) => {
    const leadId = newLeadId();
    const payload = pingOf(newLeadId());
    const answer = await ping(buyer, payload);
    if (answer.Result !== 'Bid') throw new Error('expected a bid');
    return { answer, pinged: payload.Fields, leadId };
  };
  const postOf = (leadId: string, bidId: string, pinged: object, lead = STORED_LEAD, key = `${leadId}-0`) =>
    buildPostPayload(lead, { ...context, leadId }, { idempotencyKey: key, bidId, pinged: pinged as never });

  it('bids at seeded prices within its range, and answers a re-sent ping with its first bid', async () => {
    const payload = pingOf(newLeadId());
    const first = await ping('high-bidder', payload);
    expect(first).toMatchObject({ Result: 'Bid', ExpiresAt: new Date(clock.now() + 2000).toISOString() });
    if (first.Result === 'Bid') expect(first.Price).toBeGreaterThanOrEqual(60);
    expect(await ping('high-bidder', payload)).toEqual(first);
    expect((await recording('high-bidder')).replays).toBe(1);
  });

  it('accepts posts at rates its bids do not tell: the high bidder takes far fewer', async () => {
    const accepted = { 'high-bidder': 0, steady: 0 };
    const bids = { 'high-bidder': 0, steady: 0 };
    for (const buyer of ['high-bidder', 'steady'] as const) {
      for (let i = 0; i < 60; i++) {
        const payload = pingOf(newLeadId());
        const answer = await ping(buyer, payload);
        if (answer.Result !== 'Bid') continue;
        bids[buyer] += 1;
        const leadId = newLeadId();
        const result = await post(buyer, postOf(leadId, answer.BidID, payload.Fields));
        if (result.Result === 'Accepted') {
          accepted[buyer] += 1;
          expect(result.Price).toBe(answer.Price);
          expect(result.RedirectURL).toMatch(new RegExp(`/buyers/${buyer}/lender/offer/`));
        } else expect(result.Reason).toBe('Declined');
      }
    }
    // Seeded: the same draws on every run. Every ping bid at the high bidder, about half at the steady one.
    expect(bids['high-bidder']).toBe(60);
    expect(bids.steady).toBeGreaterThan(15);
    expect(bids.steady).toBeLessThan(45);
    expect(accepted.steady).toBe(bids.steady);
    expect(accepted['high-bidder']).toBeLessThan(bids['high-bidder'] / 2);
  });

  it('refuses a post whose pinged fields differ from the ping of its bid (anti-tamper)', async () => {
    const { answer, pinged, leadId } = await bidFor('high-bidder');
    const before = (await recording('high-bidder')).tamperedPosts;
    const changed = await post(
      'high-bidder',
      postOf(leadId, answer.Result === 'Bid' ? answer.BidID : '', {
        ...pinged,
        LoanAmount: 5000,
      }),
    );
    expect(changed).toMatchObject({ Result: 'Rejected', Reason: 'Tampered' });
    // The lead's full ZIP must lie in the pinged ZIP3.
    const moved = await post(
      'high-bidder',
      postOf(
        leadId,
        answer.Result === 'Bid' ? answer.BidID : '',
        pinged,
        { ...STORED_LEAD, zip: '10001' },
        `${leadId}-1`,
      ),
    );
    expect(moved).toMatchObject({ Result: 'Rejected', Reason: 'Tampered' });
    expect((await recording('high-bidder')).tamperedPosts).toBe(before + 2);
  });

  it('refuses a post of an expired, unknown or already used bid', async () => {
    const { answer, pinged, leadId } = await bidFor('high-bidder');
    const bidId = answer.Result === 'Bid' ? answer.BidID : '';
    clock.advance(2001);
    expect(await post('high-bidder', postOf(leadId, bidId, pinged))).toMatchObject({ Reason: 'BidExpired' });
    expect((await recording('high-bidder')).expiredPosts).toBe(1);
    expect(
      await post('high-bidder', postOf(leadId, 'no-such-bid', pinged, STORED_LEAD, `${leadId}-1`)),
    ).toMatchObject({ Reason: 'UnknownBid' });
    const fresh = await bidFor('high-bidder');
    const freshId = fresh.answer.Result === 'Bid' ? fresh.answer.BidID : '';
    const first = await post('high-bidder', postOf(fresh.leadId, freshId, fresh.pinged));
    // The same key again is a replay with the first answer; another key for the same bid is refused.
    expect(await post('high-bidder', postOf(fresh.leadId, freshId, fresh.pinged))).toEqual(first);
    expect(
      await post(
        'high-bidder',
        postOf(fresh.leadId, freshId, fresh.pinged, STORED_LEAD, `${fresh.leadId}-1`),
      ),
    ).toMatchObject({ Reason: 'BidUsed' });
  });

  it('gives no bid out of its states, or when it cannot answer within MaxResponseMs', async () => {
    expect(await ping('steady', pingOf(newLeadId(), { ...STORED_LEAD, state: 'CA', zip: '94105' }))).toEqual({
      Result: 'NoBid',
    });
    expect(await ping('slow', pingOf(newLeadId(), STORED_LEAD, 300))).toEqual({ Result: 'NoBid' });
  });

  it('bids only on the screening bands it asked for, as the ping tells them (ADR 0030)', async () => {
    const banded = (qualityBand?: 'A' | 'B' | 'C') =>
      buildPingPayload(
        STORED_LEAD,
        {},
        { pingId: newLeadId(), maxResponseMs: 500, today: '2025-06-20', qualityBand },
      );
    expect((await ping('b-or-better', banded('A'))).Result).toBe('Bid');
    expect((await ping('b-or-better', banded('B'))).Result).toBe('Bid');
    expect((await ping('b-or-better', banded('C'))).Result).toBe('NoBid');
    expect((await ping('b-or-better', banded())).Result).toBe('NoBid');
  });

  it('records every ping: a field beyond the allow-list is counted and named, and the ping refused', async () => {
    const clean = await recording('steady');
    expect(clean.pings).toBeGreaterThan(0);
    expect(clean.withFieldsBeyondAllowList).toBe(0);
    const payload = pingOf(newLeadId());
    const leaky = await call('steady', 'ping', {
      ...payload,
      Email: STORED_LEAD.email,
      Fields: { ...payload.Fields, DateOfBirth: STORED_LEAD.dob },
    });
    expect(leaky.statusCode).toBe(400);
    expect(leaky.json()).toEqual({
      Errors: expect.arrayContaining([expect.objectContaining({ Field: 'Email' })]),
    });
    const after = await recording('steady');
    expect(after).toMatchObject({
      pings: clean.pings + 1,
      invalid: clean.invalid + 1,
      withFieldsBeyondAllowList: 1,
      fieldsBeyondAllowList: ['Email', 'Fields.DateOfBirth'],
    });
  });

  it('answers a bad post with field errors under its own dotted names, and counts posts in the buyer stats', async () => {
    const { answer, pinged, leadId } = await bidFor('high-bidder');
    const body = postOf(leadId, answer.Result === 'Bid' ? answer.BidID : '', pinged);
    const bad = await post('high-bidder', { ...body, Lead: { ...body.Lead, Zip: 'abc' } });
    expect(bad.Result).toBe('Error');
    expect(bad.Errors.map((e) => e.Field)).toEqual(['Lead.Zip']);
    const stats = SandboxBuyersStatsSchema.parse(
      (await app.inject({ method: 'GET', url: '/_sandbox/buyers' })).json(),
    );
    const high = stats.buyers.find((b) => b.id === 'high-bidder')!;
    expect(high).toMatchObject({ protocol: 'ping-post', errors: 1, repeatedAttempts: expect.any(Number) });
    expect(high.attempts).toBe(high.sold + high.rejected);
  });
});
