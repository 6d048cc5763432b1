import { describe, expect, it } from 'vitest';
import {
  CLIENT_TO_SERVER,
  SENSITIVE_CLIENT_FIELDS,
  SENSITIVE_SERVER_FIELDS,
  SERVER_TO_CLIENT,
  toClientFields,
  toServerFields,
} from './fields.js';

describe('client <-> server field map', () => {
  it('is one-to-one', () => {
    const servers = Object.values(CLIENT_TO_SERVER);
    expect(new Set(servers).size).toBe(servers.length);
    expect(Object.keys(SERVER_TO_CLIENT)).toHaveLength(servers.length);
  });

  it('round-trips every field without loss, both ways', () => {
    const client = Object.fromEntries(Object.keys(CLIENT_TO_SERVER).map((field, i) => [field, `value-${i}`]));
    const server = toServerFields(client);
    expect(Object.keys(server)).toHaveLength(Object.keys(client).length);
    expect(toClientFields(server)).toEqual(client);
    expect(toServerFields(toClientFields(server))).toEqual(server);
  });

  it('uses the names of spec §3', () => {
    expect(toServerFields({ routingNumber: '021000021', bankAccount: '1234', licenseID: 'X1' })).toEqual({
      bank_aba: '021000021',
      bank_account_number: '1234',
      drivers_license_number: 'X1',
    });
    expect(toClientFields({ income_net_monthly: 3500, own_home: 'YES', ssn: '123456789' })).toEqual({
      monthlyIncome: 3500,
      residenceOwnership: 'YES',
      socialSecurityNumber: '123456789',
    });
  });

  it('drops unknown keys and undefined values', () => {
    expect(toServerFields({ firstName: 'Ann', lastName: undefined, nope: 1 } as never)).toEqual({
      first_name: 'Ann',
    });
  });

  it('names the sensitive fields in both vocabularies', () => {
    expect(SENSITIVE_CLIENT_FIELDS).toEqual([
      'socialSecurityNumber',
      'bankAccount',
      'routingNumber',
      'licenseID',
      'dob',
    ]);
    expect(SENSITIVE_SERVER_FIELDS).toEqual([
      'ssn',
      'bank_account_number',
      'bank_aba',
      'drivers_license_number',
      'dob',
    ]);
  });
});
