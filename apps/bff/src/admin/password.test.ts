import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';

describe('passwords (scrypt)', () => {
  it('verifies the password it hashed, and nothing else', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('correct horse battery staple', null)).toBe(false);
    // Salted: the same password never hashes the same twice.
    expect(await hashPassword('correct horse battery staple')).not.toBe(stored);
  });
});
