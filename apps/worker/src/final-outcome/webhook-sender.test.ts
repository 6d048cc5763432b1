import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './webhook-sender.js';

describe('isPublicAddress (where production webhooks may go)', () => {
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
