import type { Migration } from 'kysely/migration';
import m0001 from './0001_lead_events_and_summary.js';
import m0002 from './0002_consent_archive.js';
import m0003 from './0003_privacy_requests.js';
import m0004 from './0004_buyer_attempts.js';
import m0005 from './0005_returns_and_conversions.js';
import m0006 from './0006_lead_search.js';
import m0008 from './0008_buyer_config_versions.js';
import m0009 from './0009_lead_summary_decided.js';
import m0010 from './0010_operator_sign_in_hardening.js';
import m0011 from './0011_buyer_keys_needed.js';
import m0012 from './0012_do_not_call.js';
import m0013 from './0013_lead_summary_screening.js';
import { OPERATOR_MIGRATIONS } from '../operator-schema.js';

/**
 * The schema, one migration per change and per file; applied in order at start by Kysely's migrator (it records
 * what ran in `kysely_migration` and takes a lock, so instances starting together apply each once). A new
 * migration is a new file with the next number, added here; one that ran is never edited.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_lead_events_and_summary': m0001,
  '0002_consent_archive': m0002,
  '0003_privacy_requests': m0003,
  '0004_buyer_attempts': m0004,
  '0005_returns_and_conversions': m0005,
  '0006_lead_search': m0006,
  ...OPERATOR_MIGRATIONS,
  '0008_buyer_config_versions': m0008,
  '0009_lead_summary_decided': m0009,
  '0010_operator_sign_in_hardening': m0010,
  '0011_buyer_keys_needed': m0011,
  '0012_do_not_call': m0012,
  '0013_lead_summary_screening': m0013,
};
