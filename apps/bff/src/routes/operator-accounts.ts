import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  AuditPageSchema,
  AuditQuerySchema,
  AuditSearchSchema,
  CreatedOperatorAccountSchema,
  NewOperatorAccountSchema,
  OperatorAccountChangeSchema,
  OperatorAccountListSchema,
  OperatorAccountSchema,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
} from '@funnel/contracts/operators';
import type { Database } from '@funnel/db/database';
import { listAccounts, summarizeAccount, updateAccount } from '@funnel/db/operator-accounts';
import { readAudit } from '@funnel/db/operator-audit';
import { searchAuditDetails } from '../admin/search-audit-details.js';
import { csv, sendCsv } from '../admin/csv.js';
import { operatorRoute } from '../admin/operator-route.js';
import { HttpError } from '../http-error.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

const DAY_MS = 86_400_000;
const AccountParamsSchema = z.object({ accountId: z.uuid() });

export interface OperatorAccountRoutesOptions {
  db: Kysely<Database> | undefined;
  now: () => Date;
}

function auditCsv(entries: readonly AuditEntry[]): string {
  return csv(
    [
      'at',
      'actor',
      'account_id',
      'action',
      'outcome',
      'method',
      'route',
      'lead_id',
      'buyer',
      'target_account',
      'ip',
      'details',
    ],
    entries.map((e) => [
      e.at,
      e.actor,
      e.accountId,
      e.action,
      e.outcome,
      e.method,
      e.route,
      e.leadId,
      e.buyer,
      e.targetAccountId,
      e.ip,
      JSON.stringify(e.details),
    ]),
  );
}

/** A page of entries, and where the next one starts when this one is full. */
function auditPage(entries: AuditEntry[], limit: number): AuditPage {
  const last = entries.at(-1);
  return { entries, ...(entries.length === limit && last ? { nextBefore: last.auditId } : {}) };
}

/** The admin's pages of the console (ADR 0021): operator accounts, and the audit log, read-only. */
const operatorAccountRoutes: FastifyPluginAsyncZod<OperatorAccountRoutesOptions> = async (app, options) => {
  const database = (): Kysely<Database> => {
    if (!options.db)
      throw new HttpError(503, 'UNAVAILABLE', 'Operator accounts need a system of record: set DATABASE_URL.');
    return options.db;
  };

  const auditEntries = async (
    log: FastifyBaseLogger,
    q: Omit<AuditQuery, 'format'> & { contactHashes?: string[] },
  ): Promise<AuditEntry[]> =>
    (await readSystemOfRecord(options.db, 'The audit log', log, (db) =>
      readAudit(db, {
        actor: q.actor,
        action: q.action,
        outcome: q.outcome,
        leadId: q.leadId,
        from: q.from ? new Date(`${q.from}T00:00:00Z`) : undefined,
        to: q.to ? new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS) : undefined,
        before: q.before,
        limit: q.limit,
        contactHashes: q.contactHashes,
      }),
    )) as AuditEntry[];

  app.get(
    '/admin/accounts',
    operatorRoute('admin', 'accounts.list', {
      summary: 'The operator accounts',
      description:
        'By email: role, whether a password and a second factor are set, OIDC, disabled. Never a secret.',
      response: { 200: OperatorAccountListSchema, 503: ApiErrorSchema },
    }),
    async (request) => ({
      accounts: await readSystemOfRecord(options.db, 'The accounts', request.log, listAccounts),
    }),
  );

  app.post(
    '/admin/accounts',
    operatorRoute(
      'admin',
      'accounts.create',
      {
        summary: 'Create an operator account and its one-time set-up link',
        description:
          'Answers the account and `setupPath` (`/operator/setup#<token>`, 24 hours, once): hand it to the person, ' +
          'who chooses their own password there. There is never a default password. 409 when the email has an ' +
          'account.',
        body: NewOperatorAccountSchema,
        response: {
          201: CreatedOperatorAccountSchema,
          400: ApiErrorSchema,
          409: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
      ['role'],
    ),
    async (request, reply) => {
      database();
      const created = await app.operatorAccounts!.create(request.body, options.now().getTime());
      if (!created)
        throw new HttpError(409, 'CONFLICT', 'That email has an account already.', { email: 'Taken.' });
      await app.audit(request, {
        action: 'accounts.created',
        outcome: 'allowed',
        targetAccountId: created.account.accountId,
        details: { role: created.account.role },
      });
      return reply.code(201).send(created);
    },
  );

  app.patch(
    '/admin/accounts/:accountId',
    operatorRoute(
      'admin',
      'accounts.change',
      {
        summary: "Change an account's role, or disable or enable it",
        description:
          'A changed role or a disabled account ends every session of the account at once (the next request ' +
          'answers 401). An admin cannot change their own account (409), so the last admin cannot lock everyone ' +
          'out.',
        params: AccountParamsSchema,
        body: OperatorAccountChangeSchema,
        response: {
          200: OperatorAccountSchema,
          400: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
      ['role', 'disabled'],
    ),
    async (request) => {
      const { accountId } = request.params;
      if (accountId === request.operator?.accountId) {
        throw new HttpError(409, 'CONFLICT', 'Ask another admin to change your own account.');
      }
      const { role, disabled } = request.body;
      const row = await updateAccount(database(), accountId, {
        ...(role ? { role } : {}),
        ...(disabled !== undefined ? { disabled_at: disabled ? options.now() : null } : {}),
      });
      if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such account.');
      await app.operatorSessions.endAll(accountId);
      return summarizeAccount(row);
    },
  );

  app.post(
    '/admin/accounts/:accountId/reset',
    operatorRoute('admin', 'accounts.reset', {
      summary: 'Start an account over: a new one-time set-up link (a forgotten password, a lost phone)',
      description:
        'Removes the password and the second factor and ends every session: the account cannot sign in until ' +
        'its owner opens the new link (24 hours, once), chooses a password and enrols again. 409 for your own ' +
        'account.',
      params: AccountParamsSchema,
      response: { 200: CreatedOperatorAccountSchema, 404: ApiErrorSchema, 409: ApiErrorSchema },
    }),
    async (request) => {
      const { accountId } = request.params;
      if (accountId === request.operator?.accountId) {
        throw new HttpError(409, 'CONFLICT', 'Ask another admin to reset your own account.');
      }
      database();
      const link = await app.operatorAccounts!.reset(accountId, options.now().getTime());
      if (!link) throw new HttpError(404, 'NOT_FOUND', 'No such account.');
      await app.operatorSessions.endAll(accountId);
      return link;
    },
  );

  app.delete(
    '/admin/accounts/:accountId/sessions',
    operatorRoute('admin', 'accounts.sign-out', {
      summary: 'End every session of an account (a lost laptop)',
      params: AccountParamsSchema,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      await app.operatorSessions.endAll(request.params.accountId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/audit',
    operatorRoute(
      'admin',
      'audit.read',
      {
        summary: 'The audit log: every console action, newest first',
        description:
          'Who (account or `api-token`), what, which lead, buyer or account, when, from which address, and ' +
          'whether it was allowed. Filter by `actor` (an account id, or `api-token`), `action`, `outcome`, ' +
          '`leadId` and UTC days `from`–`to`; page with `before`; `format=csv` downloads the page. The log is ' +
          'append-only: no route changes it, and PostgreSQL refuses UPDATE, DELETE and TRUNCATE on it.',
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, 400: ApiErrorSchema, 503: ApiErrorSchema },
      },
      ['actor', 'action', 'outcome', 'leadId', 'from', 'to', 'before', 'format'],
    ),
    async (request, reply) => {
      const q = request.query;
      const entries = await auditEntries(request.log, q);
      if (q.format === 'csv') {
        return sendCsv(reply, `audit-${q.from ?? 'start'}-${q.to ?? 'now'}.csv`, auditCsv(entries));
      }
      return auditPage(entries, q.limit);
    },
  );

  app.post(
    '/admin/audit/search',
    operatorRoute(
      'admin',
      'audit.read',
      {
        summary: 'The audit log entries about a person: who looked them up',
        description:
          'The same filters as `GET /admin/audit`, and the email and/or phone of a person, in the body so they ' +
          'never reach a URL or a log. Finds the entries recorded with their keyed hashes (a lead search by ' +
          'that email or phone, an earlier search of the log for them), newest first. This search is audited ' +
          'the same way: by the keyed hashes, never the contact.',
        body: AuditSearchSchema,
        response: { 200: AuditPageSchema, 400: ApiErrorSchema, 503: ApiErrorSchema },
      },
      searchAuditDetails((contact) => app.contactIndex.hashes(contact)),
    ),
    async (request) => {
      const { email, phone, ...q } = request.body;
      const hashes = app.contactIndex.hashes({ email, phone }).map(({ hash }) => hash);
      return auditPage(await auditEntries(request.log, { ...q, contactHashes: hashes }), q.limit);
    },
  );
};

export default operatorAccountRoutes;
