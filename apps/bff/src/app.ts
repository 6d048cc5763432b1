import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Env } from './env.js';
import { consentScripts } from './consent/consent-scripts.js';
import { partnerListVersion } from './consent/partner-list-version.js';
import accessLog from './plugins/access-log.js';
import { lazyChildLogger } from './logger.js';
import adminAuth from './plugins/admin-auth.js';
import errorHandler, { clientErrorHandler, frameworkErrors } from './plugins/error-handler.js';
import controlCharacterGuard from './plugins/control-character-guard.js';
import crossSiteGuard from './plugins/cross-site-guard.js';
import globalPrivacyControl from './plugins/global-privacy-control.js';
import { businessDate } from './lead/business-date.js';
import leadJobs from './plugins/lead-jobs.js';
import leadServices from './plugins/lead-services.js';
import leadSession from './plugins/lead-session.js';
import openapi from './plugins/openapi.js';
import outcomeEvents from './plugins/outcome-events.js';
import partnerAuth from './plugins/partner-auth.js';
import privacyServices from './plugins/privacy-services.js';
import submissionQueue from './plugins/submission-queue.js';
import redis from './plugins/redis.js';
import metrics from './plugins/metrics.js';
import queueDashboard from './plugins/queue-dashboard.js';
import requestId, { requestIdOf } from './plugins/request-id.js';
import security from './plugins/security.js';
import webApp, { webPageScriptHashes } from './plugins/web-app.js';
import type { ReferenceData } from './reference-data/reference-data.js';
import adminRoutes from './routes/admin.js';
import { OidcSignIn } from './admin/oidc-sign-in.js';
import operatorAccountRoutes from './routes/operator-accounts.js';
import operatorOidcRoutes from './routes/operator-oidc.js';
import operatorSessionRoutes from './routes/operator-session.js';
import leadJourneyRoutes from './routes/lead-journey.js';
import reportRoutes from './routes/reports.js';
import adminReturnRoutes from './routes/admin-returns.js';
import { BuyerTestLeads } from './buyer-config/buyer-test-leads.js';
import { LiveBuyers } from './buyer-config/live-buyers.js';
import buyerConfigAdminRoutes from './routes/buyer-config-admin.js';
import buyerRoutes from './routes/buyers.js';
import buyerApiRoutes from './routes/buyer-api.js';
import { openDatabase } from '@funnel/db/database';
import { deleteConsents } from '@funnel/db/consent-archive';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { buyerAddressAllowList } from '@funnel/server-runtime/env-fields';
import { replicaWaitOf } from '@funnel/server-runtime/replica-wait';
import { queueTelemetry } from '@funnel/server-runtime/tracing';
import clientLogRoutes from './routes/client-logs.js';
import crossSellRoutes from './routes/cross-sell.js';
import healthRoutes from './routes/health.js';
import leadRoutes from './routes/lead.js';
import leadSubmissionRoutes from './routes/lead-submission.js';
import lookupRoutes from './routes/lookup.js';
import partnerLeadRoutes from './routes/partner-leads.js';
import partnerRoutes from './routes/partners.js';
import privacyRoutes from './routes/privacy.js';
import publicConfigRoutes from './routes/public-config.js';
import { brandLinks } from './brand/brand-links.js';
import suggestRoutes from './routes/suggest.js';

export interface AppOptions {
  env: Env;
  logger: Logger;
  referenceData: ReferenceData;
  /** The clock, injectable so date rules can be tested on any day. */
  now?: () => Date;
  /**
   * Which answers the lead store seals at rest (default: every sensitive and personal field). Only the step-save
   * bench sets it, to measure today's set against the older sensitive-only one in the same run.
   */
  sealedFields?: (field: string) => boolean;
  /** False only in the audit bench (bench/audit-cost.ts), to measure what the audit log costs a request. */
  operatorAudit?: boolean;
}

const BODY_LIMIT_BYTES = 16 * 1024;

/** Builds the BFF. `server.ts` only listens; tests call this and use `app.inject`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { env } = options;
  const now = options.now ?? (() => new Date());
  const scripts = consentScripts({
    trustedForm: env.TRUSTEDFORM_ENABLED,
    jornaya:
      env.JORNAYA_ENABLED && env.JORNAYA_CAMPAIGN_ID ? { campaignId: env.JORNAYA_CAMPAIGN_ID } : undefined,
  });
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    // plugins/access-log.ts writes one line per request instead.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    // The caller's X-Request-Id when it is safe to keep, a random one otherwise: on every log line (`reqId`),
    // the X-Request-Id answer header and every error body.
    genReqId: requestIdOf,
    // Fastify's own router and HTTP-parser errors answer in the API's one error shape too.
    frameworkErrors,
    clientErrorHandler,
    // Node answers an HTTP/1.1 request without Host with a bare 400 and no body; the error handler's hook
    // answers it in the one error shape instead.
    http: { requireHostHeader: false },
  }).withTypeProvider<ZodTypeProvider>();
  // Every body this API reads is JSON: text/plain (Fastify parses it by default) answers 415 like any other type.
  app.removeContentTypeParser('text/plain');

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestId);
  await app.register(accessLog);
  await app.register(errorHandler);
  await app.register(redis, { connection: env });
  await app.register(metrics, {
    openSse: () => (app.hasDecorator('outcomeEvents') ? app.outcomeEvents.size : 0),
    version: env.APP_VERSION,
  });
  await app.register(security, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    addressKeySecret: env.SUPPRESSION_HASH_SECRET,
    rateLimitEnabled: env.RATE_LIMIT_ENABLED,
    rateLimitMax: env.RATE_LIMIT_MAX,
    rateLimitWindowMs: env.RATE_LIMIT_WINDOW_MS,
    consentScripts: scripts,
    inlineScriptHashes: env.WEB_DIST_DIR ? webPageScriptHashes(env.WEB_DIST_DIR) : [],
  });
  await app.register(crossSiteGuard);
  await app.register(leadSession, {
    secrets: env.COOKIE_SECRETS,
    secure: env.COOKIE_SECURE,
    maxAgeSeconds: Math.round(env.LEAD_TTL_DAYS * 24 * 60 * 60),
  });
  await app.register(submissionQueue, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    telemetry: queueTelemetry(env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined),
  });
  await app.register(leadJobs, { keyPrefix: env.REDIS_KEY_PREFIX });
  await app.register(leadServices, {
    env,
    referenceData: options.referenceData,
    now,
    ...(options.sealedFields ? { sealedFields: options.sealedFields } : {}),
  });
  await app.register(outcomeEvents);
  await app.register(openapi, { today: () => businessDate(now(), env.BUSINESS_TIME_ZONE) });
  // The system of record, for the operator reports, the consent archive and erasure; no borrower request waits
  // on it.
  const db = env.DATABASE_URL ? openDatabase({ url: env.DATABASE_URL, password: env.PGPASSWORD }) : undefined;
  if (db) app.addHook('onClose', async () => db.destroy());
  const sealer = new FieldCipher(env.FIELD_ENCRYPTION_KEYS);
  await app.register(privacyServices, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    sealer,
    hashSecret: env.SUPPRESSION_HASH_SECRET,
    ...(db
      ? {
          archive: { deleteConsents: (leadIds: readonly string[]) => deleteConsents(db, leadIds) },
          recordEvents: true,
        }
      : {}),
  });
  await app.register(globalPrivacyControl);
  await app.register(adminAuth, {
    token: env.ADMIN_API_TOKEN,
    db,
    sealer,
    keyPrefix: env.REDIS_KEY_PREFIX,
    secure: env.COOKIE_SECURE,
    idleMs: env.OPERATOR_SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: env.OPERATOR_SESSION_HOURS * 3_600_000,
    issuer: env.OPERATOR_TOTP_ISSUER,
    secondFactorRoles: env.OPERATOR_SECOND_FACTOR_ROLES,
    ...(options.operatorAudit === false ? { audit: false } : {}),
    now,
  });
  await app.register(controlCharacterGuard);
  await app.register(partnerAuth, { keys: env.PARTNER_API_KEYS });

  await app.register(healthRoutes, { replicaWait: replicaWaitOf(env), version: env.APP_VERSION });
  await app.register(queueDashboard, {
    token: env.ADMIN_API_TOKEN,
    keyPrefix: env.REDIS_KEY_PREFIX,
    writable: env.ADMIN_QUEUES_WRITABLE,
  });
  await app.register(
    async (api) => {
      await api.register(leadRoutes);
      await api.register(leadSubmissionRoutes, { heartbeatMs: env.SSE_HEARTBEAT_MS });
      await api.register(lookupRoutes);
      await api.register(suggestRoutes);
      await api.register(clientLogRoutes);
      await api.register(privacyRoutes, { db, sealer });
      await api.register(crossSellRoutes, { now });
      await api.register(publicConfigRoutes, {
        scripts,
        partnerListVersion: partnerListVersion(env.PARTNER_LIST_VERSION, env.PARTNER_NAMES),
        businessTimeZone: env.BUSINESS_TIME_ZONE,
        duplicateWindowDays: env.DUPLICATE_WINDOW_DAYS,
        brand: brandLinks(env),
      });
      await api.register(adminRoutes, { db, sealer });
      const oidc =
        db && env.OIDC_ISSUER_URL
          ? new OidcSignIn(
              {
                issuer: env.OIDC_ISSUER_URL,
                clientId: env.OIDC_CLIENT_ID!,
                clientSecret: env.OIDC_CLIENT_SECRET!,
                redirectUrl: env.OIDC_REDIRECT_URL!,
                roleClaim: env.OIDC_ROLE_CLAIM,
                roleMap: new Map(env.OIDC_ROLE_MAP),
                allowHttp: env.OIDC_ALLOW_HTTP,
                syncLocalRoles: env.OIDC_SYNC_LOCAL_ROLES,
              },
              app.redis,
              env.REDIS_KEY_PREFIX,
              db,
            )
          : undefined;
      if (oidc) await api.register(operatorOidcRoutes, { signIn: oidc, secure: env.COOKIE_SECURE, now });
      await api.register(operatorSessionRoutes, {
        oidc: oidc !== undefined,
        oidcProvider: env.OIDC_PROVIDER_NAME,
        now,
      });
      await api.register(operatorAccountRoutes, { db, now });
      await api.register(reportRoutes, { db, timeZone: env.BUSINESS_TIME_ZONE });
      await api.register(leadJourneyRoutes, { db, timeZone: env.BUSINESS_TIME_ZONE });
      // The buyers document lives in the system of record (ADR 0022); BUYERS_FILE is its first import.
      const reportFailure = app.reportFailure;
      const liveBuyers = new LiveBuyers({
        redis: app.redis,
        keyPrefix: env.REDIS_KEY_PREFIX,
        sealer,
        file: env.BUYERS,
        reportFailure,
        addresses: buyerAddressAllowList(env),
      });
      const buyerTests = new BuyerTestLeads(app.redis, env.REDIS_KEY_PREFIX, reportFailure);
      app.addHook('onClose', async () => buyerTests.close());
      const returnTerms = () => liveBuyers.returnTerms(db, now().getTime());
      await api.register(adminReturnRoutes, {
        db,
        buyers: returnTerms,
        timeZone: env.BUSINESS_TIME_ZONE,
        now,
      });
      await api.register(buyerRoutes, { db, live: liveBuyers, tests: buyerTests });
      await api.register(buyerConfigAdminRoutes, {
        filePath: env.BUYERS_FILE,
        db,
        live: liveBuyers,
        keyPrefix: env.REDIS_KEY_PREFIX,
        now,
      });
      await api.register(buyerApiRoutes, {
        db,
        keys: env.BUYER_API_KEYS,
        buyers: returnTerms,
        timeZone: env.BUSINESS_TIME_ZONE,
        now,
      });
      await api.register(partnerRoutes, {
        keyPrefix: env.REDIS_KEY_PREFIX,
        fixedNames: env.PARTNER_NAMES,
        sourceUrl: env.PARTNER_SOURCE_URL,
      });
      await api.register(partnerLeadRoutes, {
        keyPrefix: env.REDIS_KEY_PREFIX,
        allowHttpWebhook: env.PARTNER_WEBHOOK_INSECURE,
        webhookPartners: new Set(env.PARTNER_WEBHOOK_SECRETS.keys()),
      });
    },
    { prefix: '/api/v1' },
  );
  if (env.WEB_DIST_DIR) await app.register(webApp, { distDir: env.WEB_DIST_DIR });
  return app;
}
