// Reads leads the way the BFF stores them (docs/product-rules.md §field-names: one hash per lead under server names, sensitive values
// sealed), so tests can assert what was, and was not, saved.
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { keysUnder } from '@funnel/testing/redis-keys';
import type { Harness } from './harness';

export interface StoredLead {
  key: string;
  id: string;
  /** Raw hash values: JSON, or `enc:v1:…` for sealed fields. */
  raw: Record<string, string>;
}

/**
 * The keys of every lead stored so far by this harness: the lead hashes only, not the keys kept beside a lead
 * (`lead:<id>:posting` while the worker posts it), so a test never mistakes those for another lead.
 */
export async function leadKeys(harness: Harness): Promise<string[]> {
  const prefix = `${harness.config.keyPrefix}lead:`;
  return (await keysUnder(harness.redis, prefix))
    .filter((key) => !key.slice(prefix.length).includes(':'))
    .sort();
}

/** The one lead created since `before` (a list from `leadKeys`); fails when there is none or more than one. */
export async function newLead(harness: Harness, before: readonly string[]): Promise<StoredLead> {
  const created = (await leadKeys(harness)).filter((key) => !before.includes(key));
  if (created.length !== 1)
    throw new Error(`expected one new lead, found ${created.length}: ${created.join(', ')}`);
  const key = created[0] as string;
  return {
    key,
    id: key.slice(`${harness.config.keyPrefix}lead:`.length),
    raw: await harness.redis.hgetall(key),
  };
}

/** The harness's field-encryption key ring, as the BFF builds it. */
export function harnessCipher(harness: Harness): FieldCipher {
  const [id, key] = harness.config.fieldEncryptionKeys.split(':') as [string, string];
  return new FieldCipher([{ id, key: Buffer.from(key, 'base64') }]);
}

/** Opens a sealed value with the harness's key, as the BFF would (a value in clear is read as it is). */
export function openSealed(harness: Harness, lead: StoredLead, field: string): unknown {
  const cipher = harnessCipher(harness);
  const sealed = lead.raw[field];
  if (sealed === undefined) throw new Error(`${field} is not stored`);
  return JSON.parse(FieldCipher.isSealed(sealed) ? cipher.open(sealed, `${lead.id}:${field}`) : sealed);
}

/** Every stored value of the lead, sealed ones opened. */
export function openAll(harness: Harness, lead: StoredLead): Record<string, unknown> {
  return Object.fromEntries(Object.keys(lead.raw).map((field) => [field, openSealed(harness, lead, field)]));
}
