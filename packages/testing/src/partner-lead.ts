import { createHash, randomBytes } from 'node:crypto';
import { partnerLeadRequestExample } from '@funnel/contracts/partner-api';

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
  const { webhookUrl: _noWebhook, ...example } = partnerLeadRequestExample(businessToday());
  return { ...example, consent: { ...example.consent, at: new Date().toISOString() } };
}
