import { describe, expect, it } from 'vitest';
import { createContactScreen, verdictOf } from './contact-screen.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const DAY = 86_400_000;
const CONTACT = {
  leadId: 'lead-contact-screen-test',
  phone: '5125550143',
  email: 'maria.garcia@example.com',
};

describe('the screening verdict', () => {
  it('blocks on a blocking finding, flags on any other finding or an unchecked check that flags, else passes', () => {
    expect(verdictOf([], [])).toEqual({ verdict: 'pass', score: 100, reasons: [], unchecked: [] });
    expect(verdictOf(['phone_do_not_call'], [])).toMatchObject({ verdict: 'flag', score: 70 });
    expect(verdictOf(['phone_do_not_call', 'email_disposable'], [])).toMatchObject({
      verdict: 'block',
      score: 10,
    });
    expect(verdictOf(['phone_litigator', 'email_no_domain'], [])).toMatchObject({
      verdict: 'block',
      score: 0,
    });
    // The email check failing open costs a little and flags nothing; the litigator list's does flag.
    expect(verdictOf([], ['email'])).toMatchObject({ verdict: 'pass', score: 95 });
    expect(verdictOf([], ['litigator'])).toMatchObject({ verdict: 'flag', score: 80 });
  });
});

describe('the contact screen', () => {
  it('says a registry copy older than 31 days is stale, and a registry never loaded says nothing', async () => {
    const screenWith = (loadedAt: Date | undefined, listed = false) =>
      createContactScreen({
        doNotCall: async () => ({ listed, loadedAt }),
        timeoutMs: 100,
        now: () => NOW,
      }).screen(CONTACT);
    expect((await screenWith(new Date(NOW - 30 * DAY), true)).reasons).toEqual(['phone_do_not_call']);
    expect((await screenWith(new Date(NOW - 32 * DAY))).reasons).toEqual(['do_not_call_copy_stale']);
    expect(await screenWith(undefined, true)).toMatchObject({ verdict: 'pass', reasons: [] });
  });
});
