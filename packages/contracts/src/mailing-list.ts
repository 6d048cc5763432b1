/**
 * The mailing-list service's contact (spec §3 "Mailing-list contact payload", §7 POST /brevo), as the worker
 * posts it to Brevo's API v3 (`POST /v3/contacts`). Built from the stored lead here, where field renaming lives.
 */
import * as z from 'zod';
import { CLIENT_TO_SERVER as server } from './fields.js';
import { LoanReasonSchema } from './options.js';

/** Path of the contact upsert, relative to the configured Brevo base URL (`https://api.brevo.com/v3`). */
export const MAILING_LIST_CONTACTS_PATH = '/contacts';

/**
 * POST /v3/contacts body. `updateEnabled` makes it an upsert: the second sync (on submission) updates the
 * contact the first (email step) created. The spec's blacklist fields are not sent: a contact who opted out is
 * never synced at all.
 */
export const MailingListContactSchema = z.object({
  email: z.email(),
  attributes: z.object({
    FIRSTNAME: z.string().optional(),
    LASTNAME: z.string().optional(),
    LOANREASON: LoanReasonSchema.optional(),
  }),
  listIds: z.array(z.number().int().positive()),
  updateEnabled: z.literal(true),
});
export type MailingListContact = z.infer<typeof MailingListContactSchema>;

/**
 * The contact for a stored lead (server field names), or undefined when the lead has no email yet. Attributes
 * the visitor has not given yet (the name, on an early email step) are left out rather than blanked, so an
 * update never erases what the list already holds.
 */
export function mailingListContact(
  fields: Readonly<Record<string, unknown>>,
  listIds: readonly number[],
): MailingListContact | undefined {
  const email = fields[server.email];
  if (typeof email !== 'string') return undefined;
  const attributes: MailingListContact['attributes'] = {};
  const firstName = fields[server.firstName];
  const lastName = fields[server.lastName];
  const loanReason = LoanReasonSchema.safeParse(fields[server.loanReason]);
  if (typeof firstName === 'string') attributes.FIRSTNAME = firstName;
  if (typeof lastName === 'string') attributes.LASTNAME = lastName;
  if (loanReason.success) attributes.LOANREASON = loanReason.data;
  return MailingListContactSchema.parse({ email, attributes, listIds: [...listIds], updateEnabled: true });
}
