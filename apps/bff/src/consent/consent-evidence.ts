import { consentText, type ConsentRecord, type RetainedConsent } from '@funnel/contracts/consent';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import type { StoredFields } from '@funnel/lead-store/lead-store';

/** The contact points a consent covers, as the lead holds them (server names). */
const CONTACT_FIELDS = {
  firstName: CLIENT_TO_SERVER.firstName,
  lastName: CLIENT_TO_SERVER.lastName,
  email: CLIENT_TO_SERVER.email,
  phone: CLIENT_TO_SERVER.phone,
} as const;

/**
 * The consent evidence to keep for years apart from the lead: the record stored on the lead, the exact text it
 * hashes, and who consented to be contacted where. Built from an allow-list of fields, so no SSN, bank or
 * licence detail can slip in.
 */
export function retainedConsent(
  leadId: string,
  consent: ConsentRecord,
  fields: StoredFields,
): RetainedConsent {
  const contact: RetainedConsent['contact'] = {};
  for (const [name, field] of Object.entries(CONTACT_FIELDS) as Array<
    [keyof RetainedConsent['contact'], (typeof CONTACT_FIELDS)[keyof typeof CONTACT_FIELDS]]
  >) {
    const value = fields[field];
    if (typeof value === 'string') contact[name] = value;
  }
  return { ...consent, leadId, text: consentText(consent.button), contact };
}
