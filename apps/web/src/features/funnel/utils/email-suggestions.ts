import { EMAIL_DOMAIN_SUGGESTIONS } from '@funnel/contracts/options';

/**
 * Whole addresses to offer once an '@' is typed: the part before it with each common domain that starts with
 * what follows it ('jane@g' → 'jane@gmail.com').
 */
export function emailSuggestions(text: string): string[] {
  const at = text.indexOf('@');
  if (at <= 0) return [];
  const local = text.slice(0, at);
  const typedDomain = text.slice(at + 1).toLowerCase();
  return EMAIL_DOMAIN_SUGGESTIONS.filter((domain) => domain.startsWith(typedDomain)).map(
    (domain) => `${local}@${domain}`,
  );
}
