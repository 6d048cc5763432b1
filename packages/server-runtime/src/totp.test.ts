import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri } from './totp.js';

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, HMAC-SHA1, 8 digits: the seed is the ASCII "12345678901234567890".
  const seed = Buffer.from('12345678901234567890', 'ascii');
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('gives the RFC test vector at T=%i', (seconds, code) => {
    expect(hotp(seed, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it('round-trips secrets through base32 as authenticator apps read them', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI'); // RFC 4648 §10
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('takes a code one step either side of now, and no further', () => {
    const secret = newTotpSecret();
    const now = Date.parse('2026-11-12T15:00:10Z');
    const step = Math.floor(now / 30_000);
    const codeAt = (s: number) => hotp(base32Decode(secret), s);
    expect(matchTotp(secret, codeAt(step), now)).toBe(step);
    expect(matchTotp(secret, codeAt(step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, codeAt(step + 1), now)).toBe(step + 1);
    for (const far of [step - 2, step + 2]) {
      if (codeAt(far) !== codeAt(step)) expect(matchTotp(secret, codeAt(far), now)).toBeUndefined();
    }
    expect(matchTotp(secret, 'abcdef', now)).toBeUndefined();
    expect(otpauthUri('Loans', 'ada@example.com', secret)).toBe(
      `otpauth://totp/Loans%3Aada%40example.com?secret=${secret}&issuer=Loans&algorithm=SHA1&digits=6&period=30`,
    );
  });
});
