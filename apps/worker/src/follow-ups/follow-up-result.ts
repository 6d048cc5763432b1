/** What a follow-up job (mailing list, cross-sell, TrustedForm, purge) ended with, kept as its return value. */
export type FollowUpResult = { done: string } | { skipped: string };
