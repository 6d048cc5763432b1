/**
 * What every buyer protocol fills the same way: the payload fields that are a stored-lead value unchanged, and
 * the attribution tokens. Each protocol names them in its own table (payload field → our name).
 */
import type { Tracking } from './tracking.js';

/**
 * Copies into `payload` the lead's value of each `fromLead` field, and each `fromTracking` token that is present
 * and not empty (a token the visitor did not bring is left out, never sent blank).
 */
export function copyMappedFields<Lead>(
  payload: Record<string, unknown>,
  lead: Lead,
  tracking: Tracking,
  fromLead: Readonly<Record<string, keyof Lead>>,
  fromTracking: Readonly<Record<string, keyof Tracking>>,
): void {
  for (const [field, from] of Object.entries(fromLead)) payload[field] = lead[from];
  for (const [field, from] of Object.entries(fromTracking)) {
    const value = tracking[from];
    if (value !== undefined && value !== '') payload[field] = value;
  }
}
