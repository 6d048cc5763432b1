import { describe, expect, it } from 'vitest';
import { AddressAllowList, isAddressRange, isPublicAddress } from './network-address.js';

describe('isPublicAddress (where production webhooks and buyer calls may go)', () => {
  it('accepts public IPv4 and IPv6 addresses', () => {
    // One list holding ::ffff:0:0/96 once refused every IPv4 address: no partner could get a webhook.
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '198.51.100.129',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses loopback, private, link-local, shared, multicast and mapped internal addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.5',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('AddressAllowList (the non-public ranges a setting lets buyer calls reach)', () => {
  it('allows public addresses and the listed ranges only, IPv4-mapped addresses judged as IPv4', () => {
    const allowed = new AddressAllowList(['127.0.0.0/8', '::1', '172.30.90.0/24']);
    for (const address of ['8.8.8.8', '127.0.0.1', '::1', '172.30.90.7', '::ffff:127.0.0.2']) {
      expect(allowed.allows(address), address).toBe(true);
    }
    for (const address of [
      '10.0.0.1',
      '169.254.169.254',
      '172.30.91.1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(allowed.allows(address), address).toBe(false);
    }
    expect(new AddressAllowList([]).allows('127.0.0.1')).toBe(false);
  });

  it('reads an address with an optional prefix length, nothing else', () => {
    for (const entry of ['10.0.0.0/8', '::1/128', 'fc00::/7', '192.168.1.5']) {
      expect(isAddressRange(entry), entry).toBe(true);
    }
    for (const entry of ['localhost', '10.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x']) {
      expect(isAddressRange(entry), entry).toBe(false);
    }
  });
});
