import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { roleAllows, type OperatorMe, type OperatorRole } from '@funnel/contracts/operators';
import type { ContactSealer } from '@funnel/db/consent-archive';
import type { Database } from '@funnel/db/database';
import { appendAudit, type AuditEntry } from '@funnel/db/operator-audit';
import { escapeControlCharacters } from '../admin/control-characters.js';
import { OperatorAccounts } from '../admin/operator-accounts.js';
import { OperatorSessions } from '../admin/operator-sessions.js';
import { SignInLockout } from '../admin/sign-in-lockout.js';
import { HttpError } from '../http-error.js';

/** The operator's session cookie, apart from the borrower's (`funnel_lead`): neither ever stands for the other. */
export const OPERATOR_COOKIE = 'funnel_operator';
/** Sent only with the admin API: the borrower's endpoints and pages never see it. */
export const OPERATOR_COOKIE_PATH = '/api/v1/admin';
/** Who a machine client on ADMIN_API_TOKEN is, in the audit log. */
export const API_TOKEN_ACTOR = 'api-token';

/** Who is acting: a signed-in account, or a machine client on ADMIN_API_TOKEN (every role, audited as such). */
export interface OperatorPrincipal {
  accountId: string | null;
  actor: string;
  role: OperatorRole;
  /** The session's cookie value, for a signed-in account. */
  sessionId?: string;
  /** The role needs a second factor the account has not enrolled yet (ADR 0023). */
  mustEnrol?: boolean;
}

/** What a session that must enrol a second factor may still do: enrol it, and sign out. */
const ENROLMENT_ACTIONS = new Set([
  'second-factor.start',
  'second-factor.confirm',
  'session.sign-out-everywhere',
]);

/** An operator route's access rule: the least role it needs, and the action its audit entries name. */
export interface OperatorAccess {
  role: OperatorRole;
  action: string;
  /** What the entry records beside the lead or buyer: filters, a reason. Never personal data. */
  details?: (request: FastifyRequest) => Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks an operator route: sign-in and role checked on request, and every use audited (ADR 0021). */
    operator?: OperatorAccess;
  }
  interface FastifyRequest {
    operator?: OperatorPrincipal;
    /** The access rule this request was let through by, for its audit entry. */
    operatorAccess?: OperatorAccess;
  }
  interface FastifyInstance {
    /**
     * For routes written before ADR 0021 (`addHook('onRequest', app.requireAdmin)`): the admin role, audited as
     * `<METHOD> <route>`. New routes declare their role and action with `operatorRoute` instead.
     */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The same for read-only routes written before ADR 0021: the viewer role. */
    requireOperator(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    operatorSessions: OperatorSessions;
    /** Local accounts; undefined without a system of record (then only ADMIN_API_TOKEN signs in). */
    operatorAccounts: OperatorAccounts | undefined;
    /** Appends to the audit log; a no-op without a system of record. Throws when PostgreSQL refuses. */
    audit(
      request: FastifyRequest,
      entry: Pick<AuditEntry, 'action' | 'outcome'> & Partial<AuditEntry>,
    ): Promise<void>;
  }
  interface FastifyReply {
    /**
     * Starts a session for the account and sets its cookie: HttpOnly, SameSite=Strict, scoped to the admin API.
     * A local sign-in of a role that needs a second factor, without one, opens only its enrolment; a sign-in
     * through the identity provider leaves the factors to the provider.
     */
    startOperatorSession(account: OperatorMe, via?: 'password' | 'provider'): Promise<void>;
    /** Ends this browser's session, if any, and clears its cookie. */
    endOperatorSession(): Promise<void>;
  }
}

export interface AdminAuthOptions {
  token: string | undefined;
  db: Kysely<Database> | undefined;
  sealer: ContactSealer;
  keyPrefix: string;
  /** COOKIE_SECURE, as for the borrower's cookie (false only for plain-HTTP development). */
  secure: boolean;
  idleMs: number;
  absoluteMs: number;
  /** The issuer authenticator apps show. */
  issuer: string;
  /** The roles that must enrol a second factor before they use the console (OPERATOR_SECOND_FACTOR_ROLES). */
  secondFactorRoles: readonly OperatorRole[];
  /** Off only to measure what the audit log costs (bench/audit-cost.ts). */
  audit?: boolean;
  now: () => Date;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The first of `keys` the request names as a string, in its path, its query or its body: what it acts on. */
function subject(request: FastifyRequest, ...keys: string[]): string | undefined {
  for (const source of [request.params, request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const key of keys) {
      const found = (source as Record<string, unknown>)[key];
      if (typeof found === 'string') return escapeControlCharacters(found);
    }
  }
  return undefined;
}

/**
 * Operator authentication and authorisation for /api/v1/admin/* (ADR 0021). A route marked with
 * `config.operator` needs a live operator session (the `funnel_operator` cookie, its session in Redis) or, for
 * machine clients, `Authorization: Bearer <ADMIN_API_TOKEN>` (its SHA-256 compared in constant time). No
 * sign-in answers 401; a role below the route's answers 403 and is audited as denied. An allowed request is
 * appended to the audit log before its handler runs: when PostgreSQL cannot take the entry, the action is
 * refused with 503 rather than done unrecorded.
 */
export default fp<AdminAuthOptions>(
  async (app, options) => {
    const { token, db, now } = options;
    const expected = token ? sha256(token) : undefined;
    const auditing = db !== undefined && options.audit !== false;
    if (!db)
      app.log.info('no system of record: operator accounts and the audit log are off; only ADMIN_API_TOKEN');
    const sessions = new OperatorSessions(app.redis, options.keyPrefix, options);
    app.decorate('operatorSessions', sessions);
    app.decorate(
      'operatorAccounts',
      db
        ? new OperatorAccounts(
            db,
            options.sealer,
            options.issuer,
            new SignInLockout(app.redis, options.keyPrefix),
            options.secondFactorRoles,
          )
        : undefined,
    );

    const cookieOptions = {
      httpOnly: true,
      secure: options.secure,
      sameSite: 'strict',
      path: OPERATOR_COOKIE_PATH,
    } as const;

    const principalOf = async (request: FastifyRequest): Promise<OperatorPrincipal | undefined> => {
      const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (presented !== undefined) {
        return expected && timingSafeEqual(sha256(presented), expected)
          ? { accountId: null, actor: API_TOKEN_ACTOR, role: 'admin' }
          : undefined;
      }
      const id = request.cookies[OPERATOR_COOKIE];
      const session = id ? await sessions.touch(id, now().getTime()) : undefined;
      return session && id
        ? {
            accountId: session.accountId,
            actor: session.email,
            role: session.role,
            sessionId: id,
            ...(session.mustEnrol ? { mustEnrol: true } : {}),
          }
        : undefined;
    };

    app.decorate('audit', async (request: FastifyRequest, entry) => {
      if (!auditing || !db) return;
      const principal = request.operator;
      await appendAudit(db, {
        at: now(),
        accountId: principal?.accountId ?? null,
        actor: principal?.actor ?? 'anonymous',
        method: request.method,
        route: request.routeOptions.url ?? request.url.split('?')[0]!,
        leadId: subject(request, 'leadId'),
        buyer: subject(request, 'buyer', 'buyerId'),
        targetAccountId: subject(request, 'accountId'),
        ip: request.ip,
        ...entry,
      });
    });

    const auditOrRefuse = async (request: FastifyRequest, entry: Parameters<typeof app.audit>[1]) => {
      try {
        await app.audit(request, entry);
      } catch (error) {
        request.log.warn(
          { err: (error as Error).message },
          'operator audit entry not written: action refused',
        );
        throw new HttpError(
          503,
          'UNAVAILABLE',
          'The audit log cannot be written right now. Please try again shortly.',
        );
      }
    };

    const authorize = async (request: FastifyRequest, reply: FastifyReply, access: OperatorAccess) => {
      const principal = await principalOf(request);
      if (!principal) {
        reply.header('www-authenticate', 'Bearer');
        throw new HttpError(
          401,
          'UNAUTHORIZED',
          'Sign in to the operator console, or send a valid operator token.',
        );
      }
      request.operator = principal;
      request.operatorAccess = access;
      if (!roleAllows(principal.role, access.role)) {
        await auditOrRefuse(request, {
          action: access.action,
          outcome: 'denied',
          details: { needs: access.role },
        });
        throw new HttpError(
          403,
          'FORBIDDEN',
          `This needs the ${access.role} role; you are a ${principal.role}.`,
        );
      }
      if (principal.mustEnrol && !ENROLMENT_ACTIONS.has(access.action)) {
        await auditOrRefuse(request, {
          action: access.action,
          outcome: 'denied',
          details: { needs: 'second-factor' },
        });
        throw new HttpError(
          403,
          'FORBIDDEN',
          `Your role needs a second factor: set one up under Security before you use the console.`,
        );
      }
    };
    app.addHook('onRequest', async (request, reply) => {
      const access = request.routeOptions.config.operator;
      if (access) await authorize(request, reply, access);
    });
    const legacy = (role: OperatorRole) => async (request: FastifyRequest, reply: FastifyReply) =>
      authorize(request, reply, { role, action: `${request.method} ${request.routeOptions.url ?? ''}` });
    app.decorate('requireAdmin', legacy('admin'));
    app.decorate('requireOperator', legacy('viewer'));

    app.addHook('preHandler', async (request) => {
      const access = request.operatorAccess;
      if (!access || !request.operator) return;
      await auditOrRefuse(request, {
        action: access.action,
        outcome: 'allowed',
        ...(access.details ? { details: access.details(request) } : {}),
      });
    });

    app.decorateReply('startOperatorSession', async function (account: OperatorMe, via = 'password') {
      const accounts = app.operatorAccounts;
      const mustEnrol = via === 'password' && accounts !== undefined && accounts.needsSecondFactor(account);
      const id = await sessions.start({ ...account, ...(mustEnrol ? { mustEnrol } : {}) }, now().getTime());
      this.setCookie(OPERATOR_COOKIE, id, {
        ...cookieOptions,
        maxAge: Math.floor(options.absoluteMs / 1000),
      });
    });
    app.decorateReply('endOperatorSession', async function () {
      const id = this.request.cookies[OPERATOR_COOKIE];
      if (id) await sessions.end(id);
      this.clearCookie(OPERATOR_COOKIE, cookieOptions);
    });
  },
  { name: 'admin-auth', dependencies: ['lead-session', 'redis'] },
);
