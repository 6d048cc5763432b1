import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RetainedConsentSchema } from '@funnel/contracts/consent';
import { DeletionRequestSchema, DeletionResultSchema } from '@funnel/contracts/deletion-request';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { PostbackLogSchema } from '@funnel/contracts/postbacks';
import { operatorRoute } from '../admin/operator-route.js';
import { HttpError } from '../http-error.js';
import type { Kysely } from 'kysely';
import type { Database } from '@funnel/db/database';
import { getArchivedConsent, type ContactSealer } from '@funnel/db/consent-archive';

/** Operator endpoints, each behind its role (ADR 0021) and audited. */
export interface AdminRoutesOptions {
  /** The system of record, holding the consent archive; undefined when DATABASE_URL is not set. */
  db: Kysely<Database> | undefined;
  /** Opens the archived contact (the field-encryption key ring). */
  sealer: ContactSealer;
}

const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  app.get(
    '/admin/consent/:leadId',
    operatorRoute('admin', 'consent.reveal', {
      summary: 'The consent evidence of a lead (it names the borrower)',
      description:
        'Kept for CONSENT_RETENTION_DAYS (5 years by default) after submission, after the lead itself is gone: ' +
        'text version, the exact text and its SHA-256, button, UTC time, IP, user agent, page URL, ' +
        'TrustedForm certificate URL and Jornaya LeadiD when present, partner list version, and the contact ' +
        'it covers. Never an SSN or bank detail. 404 when none is kept.',
      params: z.object({ leadId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) }),
      response: { 200: RetainedConsentSchema, 404: ApiErrorSchema },
    }),
    async (request) => {
      // Redis keeps it until the drain has archived it; the archive after that.
      const consent =
        (await app.leadStore.consents.get(request.params.leadId)) ??
        (options.db
          ? await getArchivedConsent(options.db, request.params.leadId, options.sealer)
          : undefined);
      if (!consent) throw new HttpError(404, 'NOT_FOUND', 'No consent record is kept for this lead.');
      return consent;
    },
  );

  app.get(
    '/admin/postbacks',
    operatorRoute('viewer', 'postbacks.read', {
      summary: "Every attempt at a lead's affiliate postbacks",
      description:
        'Oldest first: the event, the affiliate, the attempt number, the result (delivered, failed, refused), ' +
        "the affiliate's HTTP status when it answered, what went wrong otherwise, when, and how long it took. " +
        'Kept POSTBACK_LOG_DAYS after the latest attempt; an empty list when there were none. The queue itself ' +
        'is in the dashboard at /admin/queues (affiliate-postbacks).',
      querystring: z.object({ leadId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) }),
      response: { 200: PostbackLogSchema, 400: ApiErrorSchema },
    }),
    async (request) => ({
      leadId: request.query.leadId,
      deliveries: await app.leadStore.postbacks.list(request.query.leadId),
    }),
  );

  app.post(
    '/admin/deletion-requests',
    operatorRoute('admin', 'deletion-request.create', {
      summary: 'Erase every lead of an email address and/or phone number',
      description:
        'For a verified deletion request: removes every lead that held the email or phone, its consent ' +
        "record, its queued jobs and its contact-index entries. The person's suppression entries stay (we " +
        'must keep honouring their opt-outs). With a system of record, the contact is also erased from their ' +
        'earlier requests in PostgreSQL, which keep only their type, time and outcome. The erasure itself is ' +
        'recorded with the contact as keyed hashes only.',
      body: DeletionRequestSchema,
      response: { 200: DeletionResultSchema, 400: ApiErrorSchema },
    }),
    async (request) => app.contactDeletion.erase(request.body),
  );
};

export default adminRoutes;
