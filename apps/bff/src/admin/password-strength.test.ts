import { describe, expect, it } from 'vitest';
import { weakPasswordReason } from './password-strength.js';

describe('weakPasswordReason', () => {
  it.each(['password1234', '123456789012', 'qwertyuiopas', 'lovelace1234'])('refuses %s', (password) => {
    expect(weakPasswordReason(password, ['ada.lovelace@example.com', 'Ada'])).toMatch(/unrelated words\.$/);
  });

  it('takes a long phrase of unrelated words', () => {
    expect(weakPasswordReason('correct horse battery staple', [])).toBeUndefined();
  });
});
