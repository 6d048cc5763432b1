import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ContactSealer } from '@funnel/db/consent-archive';
import type { Database } from '@funnel/db/database';
import { logPrivacyRequests, type LoggedPrivacyRequest } from '@funnel/db/privacy-request-log';
import { contactHashes } from '@funnel/lead-store/contact-hash';
import { openPrivacyRequest } from '@funnel/lead-store/suppression-list';
import type { StreamEntries } from './event-drainer.js';

/** The fields of a form request that name nobody, kept after an erasure. */
const NON_PERSONAL = ['reason', 'stateResidencyPrompt'];

export interface PrivacyLogWriterOptions {
  db: Kysely<Database>;
  /** Opens the request as the stream has it and seals it for PostgreSQL (the field-encryption key ring). */
  sealer: ContactSealer;
  /** SUPPRESSION_HASH_SECRET: the keyed hashes of the contact, as the suppression index has them. */
  hashSecret: string;
  logger: Logger;
}

/**
 * Writes entries of the suppression list's `{prefix}privacy-requests` stream to `privacy_requests` (ADR 0011):
 * the request as sent (opened from the stream's seal) sealed again for the table, the contact's keyed hashes, and what names nobody in clear. An erasure entry
 * (type `deletion`) names its contact by hashes already, and erases the earlier requests of that contact.
 */
export function privacyLogWriter(options: PrivacyLogWriterOptions) {
  const toRequest = ([id, fields]: [string, string[]]): LoggedPrivacyRequest[] => {
    const entry: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) entry[fields[i]!] = fields[i + 1]!;
    const { requestId, type, source, at, leadId } = entry;
    let sent: Record<string, unknown>;
    try {
      sent = openPrivacyRequest(options.sealer, entry);
    } catch {
      options.logger.error(
        { entryId: id },
        'privacy request does not open; kept without the request as sent',
      );
      sent = {};
    }
    if (!requestId || !type || !source || !at || Number.isNaN(Date.parse(at))) {
      options.logger.error({ entryId: id }, 'privacy request not understood; left out of the log');
      return [];
    }
    if (type === 'deletion') {
      const { contact, ...details } = sent;
      const hashes = Array.isArray(contact) ? contact.filter((h) => typeof h === 'string') : [];
      return [{ requestId, type, source, at, leadId, contactHashes: hashes, details }];
    }
    const hashes = contactHashes(
      {
        email: typeof sent.email === 'string' ? sent.email : undefined,
        phone: typeof sent.phone === 'string' ? sent.phone : undefined,
      },
      options.hashSecret,
    ).map(({ kind, hash }) => `${kind}:${hash}`);
    const details = Object.fromEntries(NON_PERSONAL.filter((k) => k in sent).map((k) => [k, sent[k]]));
    return [
      {
        requestId,
        type,
        source,
        at,
        leadId,
        contactHashes: hashes,
        details,
        request: Object.keys(sent).length > 0 ? sent : undefined,
      },
    ];
  };

  return async (_redis: unknown, entries: StreamEntries): Promise<void> => {
    await logPrivacyRequests(options.db, entries.flatMap(toRequest), options.sealer);
  };
}
