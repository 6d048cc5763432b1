import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { DEFAULT_RETURN_POLICY, type ReturnPolicy } from '@funnel/contracts/buyers';
import type { BuyerReturnRequest } from '@funnel/contracts/buyer-api';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { fileConversion } from './buyer-conversions.js';
import { decideReturn, fileReturn } from './buyer-returns.js';
import { migrate, openDatabase, type Database } from './database.js';
import { recordEvents } from './record-events.js';

const TZ = 'America/New_York';
const NOW = new Date('2026-11-20T15:00:00.000Z');
const DAY = 86_400_000;

/** A lead created and sold to `buyer` for `price`, `daysAgo` before NOW. */
function sale(leadId: string, buyer: string, price: number, daysAgo: number): LeadEvent[] {
  return soldLeadEvents(leadId, {
    buyer,
    price,
    at: new Date(NOW.getTime() - daysAgo * DAY),
    affiliate: 'aff-1',
  });
}

const POLICY: ReturnPolicy = {
  windowDays: 7,
  cap: { count: 100, period: 'month' },
  autoApprove: { reasons: ['invalid_contact'], maxPrice: 50 },
};

let keys = 0;
/** A request of `buyer` with a fresh idempotency key (or the one given). */
function returnOf(
  buyer: string,
  request: BuyerReturnRequest,
  options: { key?: string; policy?: ReturnPolicy } = {},
) {
  return {
    buyer,
    keyHash: options.key ?? `key-${(keys += 1)}`,
    fingerprint: JSON.stringify(request),
    request,
    policy: options.policy ?? POLICY,
    timeZone: TZ,
    now: NOW,
  };
}

describe('returns and conversions from buyers', () => {
  const schema = testSchema('returns');
  let db: Kysely<Database>;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema, max: 8 });
    await migrate(db, schema);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
  });

  it('approves a return its rule covers at once, and records it as a `returned` event with the price', async () => {
    await recordEvents(db, sale('lead-ret-auto-0001', 'prime', 40, 2));
    const result = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-auto-0001', reason: 'invalid_contact' }),
    );
    expect(result).toMatchObject({ replayed: false, created: { status: 'approved', price: 40 } });
    const events = await db
      .selectFrom('lead_events')
      .select(['type', 'data'])
      .where('lead_id', '=', 'lead-ret-auto-0001')
      .execute();
    expect(events.find((e) => e.type === 'returned')?.data).toMatchObject({
      buyer: 'prime',
      reason: 'invalid_contact',
      price: 40,
      approvedBy: 'rule',
      attemptKey: 'lead-ret-auto-0001-0',
    });
  });

  it('queues what the rule does not cover for an operator, who approves or rejects it', async () => {
    await recordEvents(db, [
      ...sale('lead-ret-queue-0001', 'prime', 40, 1),
      ...sale('lead-ret-queue-0002', 'prime', 80, 1),
    ]);
    // A reason outside the rule, and a price above its maxPrice.
    const fraud = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-queue-0001', reason: 'fraud', note: 'ID mismatch' }),
    );
    const dear = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-queue-0002-0', reason: 'invalid_contact' }),
    );
    if (!('created' in fraud) || !('created' in dear)) throw new Error('refused');
    expect([fraud.created.status, dear.created.status]).toEqual(['pending', 'pending']);
    expect(
      await db
        .selectFrom('lead_events')
        .select('type')
        .where('type', '=', 'returned')
        .where('lead_id', 'like', 'lead-ret-queue%')
        .execute(),
    ).toEqual([]);

    const approved = await decideReturn(db, fraud.created.returnId, 'approve', NOW, 'ops@example.com');
    expect(approved).toMatchObject({ decided: true, value: { status: 'approved' } });
    const rejected = await decideReturn(db, dear.created.returnId, 'reject', NOW, 'ops@example.com');
    expect(rejected).toMatchObject({ decided: true, value: { status: 'rejected' } });
    // Decided once: a second decision changes nothing.
    expect(await decideReturn(db, fraud.created.returnId, 'reject', NOW, 'ops@example.com')).toMatchObject({
      decided: false,
      value: { status: 'approved' },
    });
    expect(await decideReturn(db, 'ret_unknown', 'approve', NOW, 'ops@example.com')).toBeUndefined();
    const types = await db
      .selectFrom('lead_events')
      .select(['lead_id', 'type'])
      .where('lead_id', 'like', 'lead-ret-queue%')
      .where('type', 'like', 'return%')
      .orderBy('lead_id')
      .orderBy('type')
      .execute();
    expect(types).toEqual([
      { lead_id: 'lead-ret-queue-0001', type: 'return_queued' },
      { lead_id: 'lead-ret-queue-0001', type: 'returned' },
      { lead_id: 'lead-ret-queue-0002', type: 'return_queued' },
      { lead_id: 'lead-ret-queue-0002', type: 'return_rejected' },
    ]);
    // The approval names the operator who made it, for the lead's journey.
    const returned = await db
      .selectFrom('lead_events')
      .select('data')
      .where('lead_id', '=', 'lead-ret-queue-0001')
      .where('type', '=', 'returned')
      .executeTakeFirstOrThrow();
    expect(returned.data).toMatchObject({ approvedBy: 'operator', operator: 'ops@example.com' });
    // A rejected return leaves room for another of the same sale.
    const again = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-queue-0002', reason: 'duplicate' }),
    );
    expect(again).toMatchObject({ created: { status: 'pending' } });
  });

  it('takes a return only from the buyer that bought the lead, within its window, once', async () => {
    await recordEvents(db, [
      ...sale('lead-ret-window-001', 'prime', 30, 6.9),
      ...sale('lead-ret-window-002', 'prime', 30, 7.1),
      ...sale('lead-ret-window-003', 'other', 30, 1),
    ]);
    const late = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-window-002', reason: 'invalid_contact' }),
    );
    expect(late).toMatchObject({ refused: 'window_closed' });
    expect('message' in late && late.message).toMatch(
      /^The return window closed at 2026-11-20T12:36:00.000Z: .* 7 days/,
    );
    const notYours = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-window-003', reason: 'invalid_contact' }),
    );
    expect(notYours).toMatchObject({ refused: 'no_sale' });
    const unknown = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-nothing-01', reason: 'invalid_contact' }),
    );
    expect(unknown).toMatchObject({ refused: 'no_sale' });
    expect(
      await fileReturn(
        db,
        returnOf('prime', { reference: 'lead-ret-window-001', reason: 'invalid_contact' }),
      ),
    ).toMatchObject({
      created: { status: 'approved' },
    });
    const twice = await fileReturn(
      db,
      returnOf('prime', { reference: 'lead-ret-window-001-0', reason: 'duplicate' }),
    );
    expect(twice).toMatchObject({ refused: 'already_reported' });
  });

  it('answers a repeated key with what it created, and refuses the key with another body', async () => {
    await recordEvents(db, sale('lead-ret-idem-0001', 'idem', 25, 1));
    const request = { reference: 'lead-ret-idem-0001', reason: 'invalid_contact' } as const;
    const first = await fileReturn(db, returnOf('idem', request, { key: 'k1' }));
    const repeat = await fileReturn(db, returnOf('idem', request, { key: 'k1' }));
    if (!('created' in first) || !('created' in repeat)) throw new Error('refused');
    expect(repeat.replayed).toBe(true);
    expect(repeat.created).toEqual(first.created);
    expect(
      await fileReturn(db, returnOf('idem', { ...request, reason: 'fraud' }, { key: 'k1' })),
    ).toMatchObject({
      refused: 'key_reused',
    });
    // Another buyer's key of the same spelling is its own.
    expect(await fileReturn(db, returnOf('other', request, { key: 'k1' }))).toMatchObject({
      refused: 'no_sale',
    });
  });

  it('holds a count cap over the sale month, even for returns filed at once', async () => {
    const leads = Array.from({ length: 6 }, (_, i) => `lead-ret-capcount-${i}`);
    await recordEvents(
      db,
      leads.flatMap((id) => sale(id, 'counted', 20, 1)),
    );
    const policy: ReturnPolicy = { ...POLICY, cap: { count: 2, period: 'month' } };
    const results = await Promise.all(
      leads.map((reference) =>
        fileReturn(db, returnOf('counted', { reference, reason: 'invalid_contact' }, { policy })),
      ),
    );
    expect(results.filter((r) => 'created' in r)).toHaveLength(2);
    const refused = results.filter((r) => 'refused' in r);
    expect(refused).toHaveLength(4);
    expect(refused[0]).toEqual({
      refused: 'cap_reached',
      message:
        'The return cap is reached: 2 of the 6 leads sold to you in the month from 2026-11-01 are returned ' +
        'already, and your terms allow at most 2 per month: 2 returns of these sales.',
    });
  });

  it('holds a percent cap: 20 % of 10 sales is 2 returns, pending ones included', async () => {
    const leads = Array.from({ length: 10 }, (_, i) => `lead-ret-capshare-${i}`);
    await recordEvents(
      db,
      leads.flatMap((id) => sale(id, 'share', 20, 2)),
    );
    const policy: ReturnPolicy = { windowDays: 7, cap: { percent: 20, period: 'week' }, autoApprove: false };
    const outcomes = [];
    for (const reference of leads.slice(0, 3)) {
      outcomes.push(await fileReturn(db, returnOf('share', { reference, reason: 'fraud' }, { policy })));
    }
    expect(outcomes.map((o) => ('created' in o ? o.created.status : o.refused))).toEqual([
      'pending',
      'pending',
      'cap_reached',
    ]);
  });

  it('lets a buyer with one sale return it under the default terms (10 % rounded up), and says why a next one is refused', async () => {
    await recordEvents(db, sale('lead-ret-first-0', 'first', 20, 1));
    const policy = DEFAULT_RETURN_POLICY;
    const first = await fileReturn(
      db,
      returnOf('first', { reference: 'lead-ret-first-0', reason: 'invalid_contact' }, { policy }),
    );
    expect(first).toMatchObject({ replayed: false, created: { status: 'approved' } });
    const more = Array.from({ length: 9 }, (_, i) => `lead-ret-first-${i + 1}`);
    await recordEvents(
      db,
      more.flatMap((id) => sale(id, 'first', 20, 1)),
    );
    expect(
      await fileReturn(db, returnOf('first', { reference: more[0]!, reason: 'invalid_contact' }, { policy })),
    ).toEqual({
      refused: 'cap_reached',
      message:
        'The return cap is reached: 1 of the 10 leads sold to you in the month from 2026-11-01 is returned ' +
        'already, and your terms allow at most 10 % per month: 1 return of these sales.',
    });
    // An eleventh sale raises the cap to 2 (10 % of 11, rounded up).
    await recordEvents(db, sale('lead-ret-first-10', 'first', 20, 1));
    expect(
      await fileReturn(db, returnOf('first', { reference: more[0]!, reason: 'invalid_contact' }, { policy })),
    ).toMatchObject({ created: { status: 'approved' } });
  });

  it('records a conversion once per sale, only from its buyer', async () => {
    await recordEvents(db, sale('lead-conv-0000001', 'prime', 60, 3));
    const key = { buyer: 'prime', keyHash: 'c1', fingerprint: 'f1', now: NOW };
    const funded = await fileConversion(db, {
      ...key,
      request: { reference: 'lead-conv-0000001', funded: true, amount: 1500 },
    });
    expect(funded).toMatchObject({
      replayed: false,
      created: { funded: true, amount: 1500, leadId: 'lead-conv-0000001' },
    });
    expect(
      await fileConversion(db, {
        ...key,
        keyHash: 'c2',
        request: { reference: 'lead-conv-0000001', funded: false },
      }),
    ).toMatchObject({
      refused: 'already_reported',
    });
    expect(
      await fileConversion(db, {
        ...key,
        buyer: 'other',
        request: { reference: 'lead-conv-0000001', funded: false },
      }),
    ).toMatchObject({
      refused: 'no_sale',
    });
    const event = await db
      .selectFrom('lead_events')
      .select('data')
      .where('event_id', '=', 'lead-conv-0000001.converted')
      .executeTakeFirstOrThrow();
    expect(event.data).toMatchObject({ buyer: 'prime', funded: true, amount: 1500 });
  });
});
