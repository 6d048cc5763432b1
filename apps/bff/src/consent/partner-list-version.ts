import { createHash } from 'node:crypto';

/**
 * The version of the partner list a consent names, recorded with each consent. An operator sets it
 * (`PARTNER_LIST_VERSION`) when the list changes; unset, it is derived from the configured names, so editing
 * `PARTNER_NAMES` changes the version by itself.
 */
export function partnerListVersion(configured: string | undefined, partnerNames: readonly string[]): string {
  if (configured) return configured;
  const digest = createHash('sha256').update(partnerNames.join('\n')).digest('hex');
  return `names-${digest.slice(0, 12)}`;
}
