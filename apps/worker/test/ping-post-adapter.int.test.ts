import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuyerSchema, type BuyerInput } from '@funnel/contracts/buyers';
import { PostResponseSchema } from '@funnel/contracts/ping-post-network';
import { SandboxPingRecordingSchema, type SandboxBuyerInput } from '@funnel/contracts/sandbox-buyers';
import { SAMPLE_SUBMISSION_CONTEXT as context } from '@funnel/contracts/sample-lead';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { RetryableLenderError } from '../src/buyers/lender-errors.js';
import { PingPostAdapter } from '../src/buyers/ping-post-adapter.js';
import { startBuyersSandbox, storedSampleLead } from './waterfall-fixture.js';

const golden = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../packages/contracts/src/__golden__/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const lead = storedSampleLead();
const instant = { latencyMinMs: 0, latencyMaxMs: 0 };

/** The ping/post adapter against the sandbox's simulated ping/post buyers (issue 27), on the wire. */
describe('ping-post adapter', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;
  const buyers: SandboxBuyerInput[] = [
    {
      id: 'taker',
      protocol: 'ping-post',
      seed: 1,
      bidRate: 1,
      bidMin: 40,
      bidMax: 40,
      acceptShare: 1,
      ...instant,
    },
    { id: 'decliner', protocol: 'ping-post', seed: 2, bidRate: 1, acceptShare: 0, ...instant },
    { id: 'silent', protocol: 'ping-post', seed: 3, bidRate: 0, ...instant },
    { id: 'fleeting', protocol: 'ping-post', seed: 4, bidRate: 1, bidTtlMs: 0, ...instant },
    { id: 'slow', protocol: 'ping-post', seed: 5, bidRate: 1, latencyMinMs: 800, latencyMaxMs: 800 },
  ];

  beforeAll(async () => {
    sandbox = await startBuyersSandbox(buyers);
  });
  afterAll(() => sandbox.process.stop());

  const buyer = (id: string, extra: Partial<BuyerInput> = {}) =>
    BuyerSchema.parse({ id, protocol: 'ping-post', baseUrl: sandbox.buyerUrl(id), tier: 1, ...extra });
  const recording = async (id: string) =>
    SandboxPingRecordingSchema.parse(await (await fetch(`${sandbox.buyerUrl(id)}/_sandbox/pings`)).json());
  const held = async (id: string, key: string) => {
    const response = await fetch(`${sandbox.buyerUrl(id)}/_sandbox/attempts/${key}`);
    return response.status === 404
      ? undefined
      : ((await response.json()) as { payload: Record<string, unknown>; answer: unknown });
  };

  it('pings, then posts the golden lead with the bid id and the pinged fields; sold at the bid price', async () => {
    // The golden files' day, so the age band is the golden one.
    const adapter = new PingPostAdapter(buyer('taker'), undefined, {}, () =>
      Date.parse('2025-06-20T15:00:00Z'),
    );
    const key = `${context.leadId}-3`;
    const answer = await adapter.post(lead, { key, floor: 30, budgetMs: 5000 });
    await adapter.close();
    const post = await held('taker', key);
    expect(post).toBeDefined();
    const bidId = post!.payload.BidID;
    expect(post!.payload).toStrictEqual({ ...golden('post-payload.json'), BidID: bidId });
    expect(post!.payload.Pinged).toStrictEqual(golden('ping-payload.json').Fields);
    expect(PostResponseSchema.parse(post!.answer).Result).toBe('Accepted');
    expect(answer).toMatchObject({
      kind: 'sold',
      price: 40,
      redirectUrl: expect.stringContaining('/buyers/taker/'),
    });
    expect(await recording('taker')).toMatchObject({ pings: 1, bids: 1, withFieldsBeyondAllowList: 0 });
  });

  it('sends the same ping id when an attempt is tried again, and the buyer replays its bid', async () => {
    const adapter = createBuyerAdapter(buyer('taker'));
    const key = `${context.leadId}-4`;
    const before = (await sandbox.stats()).taker!;
    const first = await adapter.post(lead, { key, floor: undefined, budgetMs: 5000 });
    const again = await adapter.post(lead, { key, floor: undefined, budgetMs: 5000 });
    await adapter.close();
    expect(again).toEqual(first);
    const after = (await sandbox.stats()).taker!;
    expect((await recording('taker')).replays).toBe(1);
    // One new post, and its replay: never a second attempt for the bid.
    expect(after.attempts - before.attempts).toBe(1);
    expect(after.replays - before.replays).toBe(1);
  });

  it('turns a declined post into a rejection, and posts nothing on no bid or a bid under the floor', async () => {
    const declined = createBuyerAdapter(buyer('decliner'));
    expect(
      await declined.post(lead, { key: `${context.leadId}-5`, floor: undefined, budgetMs: 5000 }),
    ).toEqual({
      kind: 'rejected',
      fieldErrors: [],
    });
    // The decliner bids at most 60 (its default range): a floor of 61 is never reached.
    expect(await declined.post(lead, { key: `${context.leadId}-6`, floor: 61, budgetMs: 5000 })).toEqual({
      kind: 'rejected',
      fieldErrors: [],
    });
    await declined.close();
    expect(await held('decliner', `${context.leadId}-6`)).toBeUndefined();

    const silent = createBuyerAdapter(buyer('silent'));
    expect(await silent.post(lead, { key: `${context.leadId}-7`, floor: undefined, budgetMs: 5000 })).toEqual(
      {
        kind: 'rejected',
        fieldErrors: [],
      },
    );
    await silent.close();
    expect((await sandbox.stats()).silent!.attempts).toBe(0);
    expect(await recording('silent')).toMatchObject({ pings: 1, noBids: 1 });
  });

  it('never posts a bid that expired before it could be posted', async () => {
    const adapter = createBuyerAdapter(buyer('fleeting'));
    const attempt = adapter.post(lead, { key: `${context.leadId}-8`, floor: undefined, budgetMs: 5000 });
    await expect(attempt).rejects.toBeInstanceOf(RetryableLenderError);
    await expect(attempt).rejects.toMatchObject({ kind: 'bid_expired' });
    await adapter.close();
    expect((await sandbox.stats()).fleeting!.attempts).toBe(0);
  });

  it("tells the buyer the ping's deadline from the buyers file: a slower bidder has bid nothing by then", async () => {
    const adapter = createBuyerAdapter(buyer('slow', { pingPost: { pingMs: 300 } }));
    expect(
      await adapter.post(lead, { key: `${context.leadId}-9`, floor: undefined, budgetMs: 5000 }),
    ).toEqual({
      kind: 'rejected',
      fieldErrors: [],
    });
    await adapter.close();
    expect(await recording('slow')).toMatchObject({ pings: 1, noBids: 1 });
  });

  it('carried no field beyond the ping allow-list in any ping of this file', async () => {
    for (const { id } of buyers) {
      const pings = await recording(id);
      expect(pings.withFieldsBeyondAllowList, id).toBe(0);
      expect(pings.invalid, id).toBe(0);
    }
  });
});
