import { describe, expect, it } from 'vitest';
import { isUnfinished, resumeRoute } from './resume-route';

describe('resumeRoute', () => {
  it("goes to the BFF's next step", () => {
    expect(resumeRoute({ nextStep: 'email', masked: {} })).toBe('/email');
    expect(resumeRoute({ nextStep: 'ssn', masked: {} })).toBe('/ssn');
  });

  it('greets the visitor on /nextpaydatesort when the pay date is next', () => {
    expect(resumeRoute({ nextStep: 'nextpaydate', masked: {} })).toBe('/nextpaydatesort');
  });

  it('sends a complete application to /requestcash', () => {
    expect(resumeRoute({ nextStep: 'ssn', masked: { socialSecurityNumber: '6789' } })).toBe('/requestcash');
  });
});

describe('isUnfinished', () => {
  it('is true for a lead without an outcome only', () => {
    expect(isUnfinished(undefined)).toBe(false);
    expect(isUnfinished({})).toBe(true);
    expect(isUnfinished({ outcome: { outcome: 'pending', seq: 1, at: '2026-11-17T15:00:00.000Z' } })).toBe(
      false,
    );
  });
});
