import type { RevealableField } from '@funnel/contracts/lead-reveal';
import type { AuditEntry } from '@funnel/contracts/operators';
import { FIELD_LABELS } from './revealable-field-labels';

const CONTACT_HASHES: Record<string, string> = { emailHash: 'email', phoneHash: 'phone' };

function shown(value: unknown): string {
  if (Array.isArray(value)) return value.map(shown).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * What an audit entry's details say, in words: what was revealed and why, what a search was by (an email or phone
 * only as "email (hashed)": the log never holds it), why a request was refused, else each detail as `key: value`.
 */
export function auditDetailsText({ action, details }: Pick<AuditEntry, 'action' | 'details'>): string {
  if (details.refused === 'control-character') {
    return `Refused: a control character in ${shown(details.fields)}`;
  }
  if (action === 'leads.reveal' && typeof details.field === 'string') {
    const field = FIELD_LABELS[details.field as RevealableField] ?? details.field;
    return `Revealed ${field}, because: ${shown(details.reason)}`;
  }
  const parts = Object.entries(details)
    .filter(([key]) => key !== 'filters')
    .map(([key, value]) =>
      CONTACT_HASHES[key] ? `${CONTACT_HASHES[key]} (hashed)` : `${key}: ${shown(value)}`,
    );
  return parts.length > 0 ? parts.join(' · ') : '—';
}
