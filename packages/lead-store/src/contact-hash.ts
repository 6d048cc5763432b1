import { createHmac } from 'node:crypto';
import { normalizePhoneDigits } from '@funnel/contracts/rules/phone';

/** An email address and/or a phone number as someone typed them; either may be absent. */
export interface Contact {
  email?: string | undefined;
  phone?: string | undefined;
}

/** A keyed hash of one normalized contact point. */
export interface ContactHash {
  kind: 'email' | 'phone';
  hash: string;
}

/** The form of an email address that identifies a person: trimmed, lower-cased. */
export function normalizeEmail(email: string): string | undefined {
  const normalized = email.trim().toLowerCase();
  return normalized.includes('@') ? normalized : undefined;
}

/** The 10 digits of a US phone number however it was typed, or undefined when it has no 10 digits. */
export function normalizePhone(phone: string): string | undefined {
  const digits = normalizePhoneDigits(phone);
  return digits.length === 10 ? digits : undefined;
}

/**
 * HMAC-SHA256 (base64url) of the normalized email and phone under the server's secret
 * (`SUPPRESSION_HASH_SECRET`). Redis indexes contacts by these, never in clear: a look-up needs the contact in
 * hand, a dump of an index names nobody, and without the secret a guessed address cannot be confirmed. The
 * suppression list and the contact → leads index share them.
 */
export function contactHashes(contact: Contact, secret: string): ContactHash[] {
  const email = contact.email === undefined ? undefined : normalizeEmail(contact.email);
  const phone = contact.phone === undefined ? undefined : normalizePhone(contact.phone);
  return [
    ...(email ? [{ kind: 'email' as const, hash: keyedHash(`email:${email}`, secret) }] : []),
    ...(phone ? [{ kind: 'phone' as const, hash: keyedHash(`phone:${phone}`, secret) }] : []),
  ];
}

/** HMAC-SHA256 of `text` under `secret`, base64url. */
export function keyedHash(text: string, secret: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}
