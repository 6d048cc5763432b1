/** The deep link's parameters (spec §2: `/?email=&loan_reason=`). */
export const DEEP_LINK_EMAIL = 'email';
export const DEEP_LINK_LOAN_REASON = 'loan_reason';

/**
 * Whether the landing URL's query carries a deep link, valid or not. Without zod, so the first screen knows at
 * once; `readDeepLink` (loaded after hydration) checks what it carries.
 */
export function carriesDeepLink(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has(DEEP_LINK_EMAIL) || params.has(DEEP_LINK_LOAN_REASON);
}
