import { describe, expect, it } from 'vitest';
import { safeRedirectUrl } from './safe-redirect-url';

describe('safeRedirectUrl', () => {
  it('keeps web addresses', () => {
    expect(safeRedirectUrl('https://lender.example/offer/1?x=1')).toBe('https://lender.example/offer/1?x=1');
    expect(safeRedirectUrl('http://127.0.0.1:4010/lender/offer/abc')).toBe(
      'http://127.0.0.1:4010/lender/offer/abc',
    );
  });

  it('refuses anything else', () => {
    expect(safeRedirectUrl(undefined)).toBeUndefined();
    expect(safeRedirectUrl('')).toBeUndefined();
    expect(safeRedirectUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeRedirectUrl('data:text/html,hi')).toBeUndefined();
    expect(safeRedirectUrl('/relative')).toBeUndefined();
  });
});
