import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FieldCipher } from './field-cipher.js';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('FieldCipher', () => {
  it('round-trips and never shows the plaintext', () => {
    const cipher = new FieldCipher([key('k1')]);
    const sealed = cipher.seal('123456789', 'lead-a:ssn');
    expect(sealed).not.toContain('123456789');
    expect(sealed.startsWith('enc:v1:k1:')).toBe(true);
    expect(cipher.open(sealed, 'lead-a:ssn')).toBe('123456789');
  });

  it('uses a fresh IV each time', () => {
    const cipher = new FieldCipher([key('k1')]);
    expect(cipher.seal('x', 'c')).not.toBe(cipher.seal('x', 'c'));
  });

  it('never repeats an IV, across refills of the IV pool', () => {
    const cipher = new FieldCipher([key('k1')]);
    const ivs = Array.from({ length: 10_000 }, () => cipher.seal('x', 'c').split(':')[3]);
    expect(new Set(ivs).size).toBe(ivs.length);
  });

  it('refuses a value moved to another lead or field', () => {
    const cipher = new FieldCipher([key('k1')]);
    const sealed = cipher.seal('123456789', 'lead-a:ssn');
    expect(() => cipher.open(sealed, 'lead-b:ssn')).toThrow();
  });

  it('reads values sealed with an older key after rotation', () => {
    const old = key('old');
    const sealed = new FieldCipher([old]).seal('secret', 'c');
    const rotated = new FieldCipher([key('new'), old]);
    expect(rotated.open(sealed, 'c')).toBe('secret');
    expect(rotated.seal('secret', 'c').startsWith('enc:v1:new:')).toBe(true);
  });

  it('fails clearly when the key is gone', () => {
    const sealed = new FieldCipher([key('gone')]).seal('secret', 'c');
    expect(() => new FieldCipher([key('k2')]).open(sealed, 'c')).toThrow(/gone/);
  });
});
