import { describe, expect, it } from 'vitest';
import { auditDetailsText } from './audit-details';

describe('auditDetailsText', () => {
  it('says what was revealed and why', () => {
    expect(
      auditDetailsText({
        action: 'leads.reveal',
        details: { field: 'phone', reason: 'Borrower asked us to confirm the number' },
      }),
    ).toBe('Revealed Phone, because: Borrower asked us to confirm the number');
  });

  it('names a searched email or phone only as hashed, and the other filters with their values', () => {
    expect(
      auditDetailsText({
        action: 'leads.search',
        details: { filters: ['email', 'from'], from: '2026-11-01', emailHash: 'aGFzaA' },
      }),
    ).toBe('from: 2026-11-01 · email (hashed)');
  });

  it('says why a request was refused', () => {
    expect(
      auditDetailsText({
        action: 'audit.read',
        details: { refused: 'control-character', fields: ['actor', 'leadId'] },
      }),
    ).toBe('Refused: a control character in actor, leadId');
  });

  it('shows a dash when there is nothing to say', () => {
    expect(auditDetailsText({ action: 'accounts.list', details: {} })).toBe('—');
  });
});
