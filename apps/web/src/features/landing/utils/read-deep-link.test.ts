import { describe, expect, it } from 'vitest';
import { readDeepLink } from './read-deep-link';

describe('readDeepLink', () => {
  it('is undefined for a query without deep-link parameters', () => {
    expect(readDeepLink('?utm_source=news')).toBeUndefined();
    expect(readDeepLink('')).toBeUndefined();
  });

  it('reads a valid email and loan reason, and keeps the other parameters', () => {
    expect(readDeepLink('?email=jane%40example.com&loan_reason=medical&utm_source=news')).toEqual({
      request: { email: 'jane@example.com', loanReason: 'MEDICAL' },
      loanReason: 'MEDICAL',
      remainingSearch: '?utm_source=news',
    });
  });

  it('pre-fills no lead from an invalid email, but keeps a valid loan reason for the form', () => {
    expect(readDeepLink('?email=not-an-email&loan_reason=TAXES')).toEqual({
      request: undefined,
      loanReason: 'TAXES',
      remainingSearch: '',
    });
  });

  it('pre-fills no lead from an unknown loan reason', () => {
    expect(readDeepLink('?email=jane%40example.com&loan_reason=YACHT')?.request).toBeUndefined();
  });
});
