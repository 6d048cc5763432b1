import { EncryptionKeysSchema } from './encryption-keys.js';
import { PartnerWebhookSecretsSchema } from './partner-config.js';

/**
 * The keys the BFF and the worker both read for what this package seals and signs, beside
 * `serverEnvFields` (`@funnel/server-runtime/env-fields`): an app's `env.ts` spreads both.
 */
export const leadStoreEnvFields = {
  FIELD_ENCRYPTION_KEYS: EncryptionKeysSchema,
  /** `partnerId:secret`, comma-separated: the BFF accepts webhook addresses of these partners, the worker signs with them. */
  PARTNER_WEBHOOK_SECRETS: PartnerWebhookSecretsSchema,
};

/** The secrets among `leadStoreEnvFields`: each may be given as a file instead (`NAME_FILE`, `parseEnv`). */
export const LEAD_STORE_SECRET_SETTINGS = ['FIELD_ENCRYPTION_KEYS', 'PARTNER_WEBHOOK_SECRETS'] as const;
