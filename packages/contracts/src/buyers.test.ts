import { describe, expect, it } from 'vitest';
import {
  breakerOf,
  contractPriceOf,
  BuyersFileSchema,
  describeBuyersFileIssues,
  isAutoApproved,
  pingPostDeadlines,
  returnPolicyOf,
} from './buyers.js';

const good = {
  timeZone: 'America/Chicago',
  buyers: [
    { id: 'network', protocol: 'lead-service', baseUrl: 'http://127.0.0.1:4010', tier: 1, price: 40 },
    {
      id: 'market',
      protocol: 'sync-post',
      baseUrl: 'http://127.0.0.1:4010/buyers/market',
      tier: 2,
      priceLadder: [80, 50, 20, 2, 0],
      filters: { states: ['TX'], minAmount: 500, maxAmount: 5000, activeHours: { fromHour: 8, toHour: 20 } },
      caps: { perHour: 10, perDay: 100 },
    },
  ],
};

describe('BuyersFileSchema', () => {
  it('accepts a good file and fills in the timeouts', () => {
    const file = BuyersFileSchema.parse(good);
    expect(file.buyers[0]!.timeouts).toEqual({ connectMs: 3000, attemptMs: 30_000, pollMs: 2000 });
    expect(file.buyers[1]!.filters.states).toEqual(['TX']);
  });

  it('walks the waterfall unless the file asks for the auction, whose settings have stated defaults', () => {
    const file = BuyersFileSchema.parse(good);
    expect(file.mode).toBe('waterfall');
    expect(file.auction).toEqual({
      roundMs: 750,
      rankBy: 'expected-value',
      windowMs: 7 * 24 * 3600_000,
      returnWindowMs: 30 * 24 * 3600_000,
      refreshMs: 60_000,
    });
    const auction = BuyersFileSchema.parse({
      ...good,
      mode: 'auction',
      auction: { roundMs: 400, rankBy: 'price' },
    });
    expect(auction.mode).toBe('auction');
    expect(auction.auction).toMatchObject({ roundMs: 400, rankBy: 'price', refreshMs: 60_000 });
    expect(BuyersFileSchema.safeParse({ ...good, mode: 'lottery' }).success).toBe(false);
  });

  it('lists every problem of a bad file, each with its path', () => {
    const result = BuyersFileSchema.safeParse({
      timeZone: 'Mars/Olympus',
      buyers: [
        { ...good.buyers[0], id: 'Bad Id', priceLadder: [10] },
        { ...good.buyers[1], priceLadder: [20, 50], filters: { minAmount: 900, maxAmount: 100 } },
        { ...good.buyers[1], protocol: 'carrier-pigeon' },
      ],
    });
    expect(result.success).toBe(false);
    const lines = describeBuyersFileIssues(result.error!);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^timeZone: /),
        expect.stringMatching(/^buyers\.0\.id: /),
        expect.stringMatching(/^buyers\.0\.priceLadder: /),
        expect.stringMatching(/^buyers\.1\.priceLadder: .*strictly down/),
        expect.stringMatching(/^buyers\.1\.filters\.minAmount: /),
        expect.stringMatching(/^buyers\.2\.protocol: /),
      ]),
    );
  });

  it('refuses duplicate ids and a sync-post buyer without a ladder', () => {
    const result = BuyersFileSchema.safeParse({
      timeZone: 'UTC',
      buyers: [good.buyers[0], good.buyers[0], { ...good.buyers[1], priceLadder: undefined }],
    });
    const lines = describeBuyersFileIssues(result.error!);
    expect(lines).toEqual(
      expect.arrayContaining([
        'buyers.1.id: Duplicate id',
        'buyers.2.priceLadder: A sync-post buyer needs a price ladder',
      ]),
    );
  });

  it('takes a ping-post buyer with its deadlines, defaulting the ping to 500 ms and the post to attemptMs', () => {
    const pingPost = {
      id: 'bidder',
      protocol: 'ping-post',
      baseUrl: 'http://127.0.0.1:4010/buyers/bidder',
      tier: 1,
    };
    const file = BuyersFileSchema.parse({
      timeZone: 'UTC',
      buyers: [
        pingPost,
        {
          ...pingPost,
          id: 'bidder-2',
          priceLadder: [15],
          pingPost: { pingMs: 750 },
          timeouts: { attemptMs: 8000 },
        },
      ],
    });
    expect(pingPostDeadlines(file.buyers[0]!)).toEqual({ pingMs: 500, postMs: 30_000 });
    expect(pingPostDeadlines(file.buyers[1]!)).toEqual({ pingMs: 750, postMs: 8000 });
    const bad = BuyersFileSchema.safeParse({
      timeZone: 'UTC',
      buyers: [
        { ...pingPost, priceLadder: [20, 10], price: 5 },
        { ...good.buyers[0], pingPost: { pingMs: 500 } },
      ],
    });
    expect(describeBuyersFileIssues(bad.error!)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^buyers\.0\.priceLadder: .*at most one floor/),
        'buyers.0.price: A ping-post buyer bids its own price',
        'buyers.1.pingPost: Only a ping-post buyer has ping deadlines',
      ]),
    );
  });
});

describe('breaker settings (ADR 0022)', () => {
  it('defaults to 5 failures and 30 s, keeps what the file says, and round-trips the file unchanged', () => {
    const withBreaker = {
      ...good,
      buyers: [{ ...good.buyers[0]!, breaker: { failures: 2 } }, good.buyers[1]!],
    };
    const file = BuyersFileSchema.parse(withBreaker);
    expect(breakerOf(file.buyers[0]!)).toEqual({ failures: 2, coolDownMs: 30_000 });
    expect(breakerOf(file.buyers[1]!)).toEqual({ failures: 5, coolDownMs: 30_000 });
    // An export is the parsed file: parsed again, it is the same, and no breaker was added to the other buyer.
    expect(BuyersFileSchema.parse(JSON.parse(JSON.stringify(file)))).toEqual(file);
    expect(file.buyers[1]).not.toHaveProperty('breaker');
  });

  it('refuses a breaker that could never open or never close, with its path', () => {
    const bad = {
      ...good,
      buyers: [{ ...good.buyers[0]!, breaker: { failures: 0, coolDownMs: 0, after: 3 } }],
    };
    const result = BuyersFileSchema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(describeBuyersFileIssues(result.error!).map((line) => line.split(':')[0])).toEqual(
      expect.arrayContaining([
        'buyers.0.breaker.failures',
        'buyers.0.breaker.coolDownMs',
        'buyers.0.breaker',
      ]),
    );
  });
});

describe('return terms (ADR 0020)', () => {
  const market = good.buyers[1]!;
  const withReturns = (returns: unknown) =>
    BuyersFileSchema.safeParse({ ...good, buyers: [good.buyers[0], { ...market, returns }] });

  it('gives a buyer without terms the stated defaults: 7 days, 10 % a month, facts approved, judgements reviewed', () => {
    const policy = returnPolicyOf(BuyersFileSchema.parse(good).buyers[1]);
    expect(policy).toEqual({
      windowDays: 7,
      cap: { percent: 10, period: 'month' },
      autoApprove: { reasons: ['invalid_contact', 'duplicate', 'invalid_bank_account'] },
    });
    expect(isAutoApproved(policy, 'duplicate', 500)).toBe(true);
    expect(isAutoApproved(policy, 'fraud', 1)).toBe(false);
  });

  it('approves by a rule only the listed reasons up to its price', () => {
    const parsed = withReturns({
      windowDays: 3,
      cap: { count: 20, period: 'week' },
      autoApprove: { reasons: ['invalid_contact'], maxPrice: 40 },
    });
    expect(parsed.success).toBe(true);
    const policy = returnPolicyOf(parsed.data!.buyers[1]);
    expect(isAutoApproved(policy, 'invalid_contact', 40)).toBe(true);
    expect(isAutoApproved(policy, 'invalid_contact', 40.01)).toBe(false);
    expect(isAutoApproved(policy, 'duplicate', 10)).toBe(false);
    expect(isAutoApproved({ ...policy, autoApprove: true }, 'other', 999)).toBe(true);
  });

  it('refuses a cap with neither a count nor a percent, and a window past 60 days, with their paths', () => {
    const parsed = withReturns({ windowDays: 90, cap: { period: 'day' }, autoApprove: false });
    expect(describeBuyersFileIssues(parsed.error!)).toEqual([
      'buyers.1.returns.windowDays: Too big: expected number to be <=60',
      'buyers.1.returns.cap: A cap needs a count, a percent or both',
    ]);
  });
});

describe('prices by screening band (ADR 0030)', () => {
  const network = { ...good.buyers[0]!, priceByBand: { A: 60, B: 45 } };

  it("pays a lead-service buyer's band price, or its price for a band it left out or a lead not screened", () => {
    const buyer = BuyersFileSchema.parse({ ...good, buyers: [network] }).buyers[0]!;
    expect([contractPriceOf(buyer, 'A'), contractPriceOf(buyer, 'B'), contractPriceOf(buyer, 'D')]).toEqual([
      60, 45, 40,
    ]);
    expect(contractPriceOf(buyer)).toBe(40);
  });

  it('refuses a band price for a buyer that prices each lead itself, and a band that does not exist', () => {
    const result = BuyersFileSchema.safeParse({
      ...good,
      buyers: [
        { ...network, priceByBand: { E: 10 } },
        { ...good.buyers[1], priceByBand: { A: 60 } },
      ],
    });
    expect(describeBuyersFileIssues(result.error!).map((line) => line.split(':')[0])).toEqual([
      'buyers.0.priceByBand',
      'buyers.1.priceByBand',
    ]);
  });
});
