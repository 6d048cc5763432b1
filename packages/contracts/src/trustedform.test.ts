import { describe, expect, it } from 'vitest';
import { isTrustedFormCertificate } from './trustedform.js';

describe('isTrustedFormCertificate', () => {
  it.each([
    ['https://cert.trustedform.com/2f3e4d5c6b7a8f9e0d1c', true],
    ['https://cert.trustedform.com/abc?shared_token=xyz', true],
    ['http://cert.trustedform.com/abc', false],
    ['https://cert.trustedform.com.evil.example/abc', false],
    ['https://evil.example/cert.trustedform.com/abc', false],
    ['https://user@cert.trustedform.com/abc', false],
    ['https://cert.trustedform.com:8443/abc', false],
    ['https://cert.trustedform.com/', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isTrustedFormCertificate(url)).toBe(expected);
  });

  it('accepts another configured origin (a local stand-in in tests)', () => {
    expect(isTrustedFormCertificate('http://127.0.0.1:4567/abc', 'http://127.0.0.1:4567')).toBe(true);
    expect(isTrustedFormCertificate('https://cert.trustedform.com/abc', 'http://127.0.0.1:4567')).toBe(false);
  });
});
