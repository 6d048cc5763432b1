import { describe, expect, it } from 'vitest';
import { fieldErrors } from './errors.js';
import {
  DoNotSellFlagSchema,
  DoNotSellRequestSchema,
  PartnersSchema,
  PrivacyPhoneSchema,
  PrivacyRequestResultSchema,
  STATE_RESIDENCY_OPTIONS,
  StateResidencySchema,
  UNSUBSCRIBE_CONFIRMATION,
  UnsubscribeRequestSchema,
} from './privacy.js';

const UNSUBSCRIBE = { email: 'maria@example.com', phone: '(212)-555-0142', reason: 'DID_NOT_APPLY' };

const DO_NOT_SELL = {
  stateResidencyPrompt: 'CA',
  firstName: 'Maria',
  lastName: 'Garcia',
  email: 'maria@example.com',
  phone: '2125550142',
  country: 'United States',
  zip: '90210',
  state: 'CA',
  address: '1 Rodeo Dr',
  city: 'Beverly Hills',
};

function messages(result: { success: boolean; error?: Parameters<typeof fieldErrors>[0] }) {
  return result.success || !result.error ? {} : fieldErrors(result.error);
}

describe('privacy phone', () => {
  it.each([
    ['(212)-555-0142', '2125550142'],
    ['2125550142', '2125550142'],
    [' 212-555-0142 ', '2125550142'],
    ['12125550142', '2125550142'],
  ])('accepts %j as %s', (input, digits) => {
    expect(PrivacyPhoneSchema.parse(input)).toBe(digits);
  });

  it.each([
    ['', 'Phone number is required!'],
    ['   ', 'Phone number is required!'],
    [undefined, 'Phone number is required!'],
    ['(212)-555-01__', 'Phone number must be 10 characters long'],
    ['212555', 'Phone number must be 10 characters long'],
    ['(212)-555-0142-99', 'Phone number must be 10 characters long'],
    ['212555014x', 'The phone number is not correct!'],
    ['(112)-555-0142', 'The phone number is not correct!'],
  ])('refuses %j with %j', (input, message) => {
    const result = PrivacyPhoneSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});

describe('UnsubscribeRequestSchema', () => {
  it('accepts the form and outputs the phone as digits', () => {
    expect(UnsubscribeRequestSchema.parse({ ...UNSUBSCRIBE, email: ' maria@example.com ' })).toEqual({
      email: 'maria@example.com',
      phone: '2125550142',
      reason: 'DID_NOT_APPLY',
    });
  });

  it('refuses an empty form with one message per field', () => {
    expect(messages(UnsubscribeRequestSchema.safeParse({}))).toEqual({
      email: 'invalid email address',
      phone: 'Phone number is required!',
      reason: 'Unsubscribe reason is required!',
    });
  });

  it('refuses a bad email, a short phone and an unknown reason', () => {
    expect(
      messages(UnsubscribeRequestSchema.safeParse({ email: 'maria@', phone: '212-555', reason: 'BORED' })),
    ).toEqual({
      email: 'invalid email address',
      phone: 'Phone number must be 10 characters long',
      reason: 'Please select an unsubscribe reason from the list',
    });
    // Spec §5 (kept by docs/product-rules.md §messages): one message for an empty and a malformed email.
    expect(messages(UnsubscribeRequestSchema.safeParse({ ...UNSUBSCRIBE, email: '  ' }))).toEqual({
      email: 'invalid email address',
    });
  });
});

describe('DoNotSellRequestSchema', () => {
  it('accepts the form without a middle name and normalises what it keeps', () => {
    expect(
      DoNotSellRequestSchema.parse({ ...DO_NOT_SELL, middleName: '  ', state: 'california', zip: ' 90210 ' }),
    ).toEqual({ ...DO_NOT_SELL, middleName: undefined });
    expect(DoNotSellRequestSchema.parse({ ...DO_NOT_SELL, middleName: 'Luisa' }).middleName).toBe('Luisa');
    expect(DoNotSellRequestSchema.parse({ ...DO_NOT_SELL, middleName: null }).middleName).toBeUndefined();
  });

  it('refuses a name or city with control or bidi-override characters, as the funnel does', () => {
    expect(
      messages(
        DoNotSellRequestSchema.safeParse({ ...DO_NOT_SELL, firstName: 'Ann\u202E', city: 'LA\u001b[0m' }),
      ),
    ).toEqual({
      firstName: 'Please remove unsupported characters.',
      city: 'Please remove unsupported characters.',
    });
  });

  it('offers the five named states and "none" for the residency prompt', () => {
    expect(STATE_RESIDENCY_OPTIONS.map((option) => option.value)).toEqual([
      'CA',
      'NV',
      'VA',
      'UT',
      'CT',
      'NONE',
    ]);
    expect(StateResidencySchema.parse('NONE')).toBe('NONE');
  });

  it('refuses an empty form with the spec messages', () => {
    expect(messages(DoNotSellRequestSchema.safeParse({}))).toEqual({
      stateResidencyPrompt: 'Please select an answer!',
      firstName: 'First Name is required!',
      lastName: 'Last Name is required!',
      email: 'Email is required!',
      phone: 'Phone number is required!',
      zip: 'Zip code must be 5 characters long',
      state: 'State is required!',
      address: 'Address must be 5 characters long',
      city: 'City is required!',
    });
    // Spec §5 (kept by docs/product-rules.md §messages): one message for an empty and a short address.
    expect(messages(DoNotSellRequestSchema.safeParse({ ...DO_NOT_SELL, address: '   ' }))).toEqual({
      address: 'Address must be 5 characters long',
    });
  });

  it('refuses short, malformed and unknown values with the spec messages', () => {
    expect(
      messages(
        DoNotSellRequestSchema.safeParse({
          ...DO_NOT_SELL,
          stateResidencyPrompt: 'TX',
          firstName: '  ',
          lastName: 'x'.repeat(51),
          email: 'maria.example.com',
          phone: '(212)-555',
          zip: '9021A',
          state: 'Atlantis',
          address: '1 Rd',
          city: ' ',
        }),
      ),
    ).toEqual({
      stateResidencyPrompt: 'Please select an answer!',
      firstName: 'First Name is required!',
      lastName: 'Last name must be at most 50 characters',
      email: 'Invalid email address',
      phone: 'Phone number must be 10 characters long',
      zip: 'Zip code must be 5 characters long',
      state: 'State is required!',
      address: 'Address must be 5 characters long',
      city: 'City is required!',
    });
    expect(messages(DoNotSellRequestSchema.safeParse({ ...DO_NOT_SELL, zip: '902101' }))).toEqual({
      zip: 'Zip code must be 5 characters long',
    });
  });
});

describe('answers', () => {
  it('describes the request result, the lead flag and the partners list', () => {
    expect(PrivacyRequestResultSchema.parse({ status: 200, message: UNSUBSCRIBE_CONFIRMATION })).toEqual({
      status: 200,
      message: UNSUBSCRIBE_CONFIRMATION,
    });
    expect(UNSUBSCRIBE_CONFIRMATION).toContain('48 hours');
    expect(
      DoNotSellFlagSchema.safeParse({ source: 'global-privacy-control', at: '2026-11-21T10:00:00.000Z' })
        .success,
    ).toBe(true);
    expect(DoNotSellFlagSchema.safeParse({ source: 'guess', at: 'now' }).success).toBe(false);
    expect(PartnersSchema.parse({ partners: ['A', 'B'] })).toEqual({ partners: ['A', 'B'] });
  });
});
