import { createHash, randomBytes } from 'node:crypto';
import { PARTNER_LEAD_REQUEST_EXAMPLE } from '@funnel/contracts/partner-api';
import { addDays } from '@funnel/contracts/rules/calendar-date';
import { isSelectablePayDate } from '@funnel/contracts/rules/pay-dates';

/** A partner API key and its `PARTNER_API_KEYS` entry, as scripts/partner-key.mjs makes them. */
export function partnerKey(partnerId: string, requestsPerMinute: number) {
  const key = `fpk_${randomBytes(24).toString('base64url')}`;
  const hash = createHash('sha256').update(key).digest('hex');
  return { key, entry: `${partnerId}:aff-${partnerId}:${hash}:${requestsPerMinute}` };
}

function businessToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
}

/** The documented example lead, with a pay date and consent time valid today, and no webhook (benchmarks, the fault suite, process tests). */
export function partnerLeadBody(): Record<string, unknown> {
  const today = businessToday();
  let payDate = addDays(today, 3);
  while (!isSelectablePayDate(payDate, today)) payDate = addDays(payDate, 1);
  const { webhookUrl: _noWebhook, ...example } = PARTNER_LEAD_REQUEST_EXAMPLE;
  return {
    ...example,
    incomeNextDate1: payDate,
    consent: { ...PARTNER_LEAD_REQUEST_EXAMPLE.consent, at: new Date().toISOString() },
  };
}
