import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature } from './webhook-signature.js';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef';
const BODY = '{"leadId":"k3J9xQ2mVb7TzR1pL8wN4A","outcome":"sold","decidedAt":"2025-06-20T14:03:19.412Z"}';
const T = 1_750_428_199;
const NOW_MS = T * 1000;

describe('webhook signatures', () => {
  it('signs "t.body" with HMAC-SHA256, as documented, so any language can verify', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signWebhookPayload([SECRET], BODY, T)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies its own signature within the tolerance', () => {
    const header = signWebhookPayload([SECRET], BODY, T);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, NOW_MS + 299_000)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, Buffer.from(BODY), 300, NOW_MS)).toBe(true);
  });

  it('refuses another secret, a changed body, a stale or future timestamp, and malformed headers', () => {
    const header = signWebhookPayload([SECRET], BODY, T);
    expect(verifyWebhookSignature(`${SECRET}x`, header, BODY, 300, NOW_MS)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY.replace('sold', 'rejected'), 300, NOW_MS)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, NOW_MS + 301_000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, NOW_MS - 301_000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header.replace(`t=${T}`, `t=${T + 1}`), BODY, 300, NOW_MS)).toBe(
      false,
    );
    for (const bad of [undefined, '', 'v1=abc', `t=${T}`, `t=x,v1=${'0'.repeat(64)}`]) {
      expect(verifyWebhookSignature(SECRET, bad, BODY, 300, NOW_MS)).toBe(false);
    }
  });

  it('carries one signature per secret during a rotation; either secret verifies', () => {
    const next = 'whsec_fedcba9876543210fedcba9876543210';
    const header = signWebhookPayload([next, SECRET], BODY, T);
    expect(header.split(',')).toHaveLength(3);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, NOW_MS)).toBe(true);
    expect(verifyWebhookSignature(next, header, BODY, 300, NOW_MS)).toBe(true);
  });
});
