import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { standardWebhookHeaders } from './standard-webhook.js';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const BODY = '{"leadId":"k3J9xQ2mVb7TzR1pL8wN4A","outcome":"sold","decidedAt":"2026-11-25T14:03:19.412Z"}';

describe('Standard Webhooks signatures', () => {
  it('verify with the standardwebhooks library and the issued secret, and with nothing else', () => {
    const [current, other] = [secret(), secret()];
    const headers = standardWebhookHeaders([current], 'msg_k3J9xQ2mVb7TzR1pL8wN4A', BODY);
    expect(headers['webhook-id']).toBe('msg_k3J9xQ2mVb7TzR1pL8wN4A');
    expect(new Webhook(current).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(other).verify(BODY, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(current).verify(BODY.replace('sold', 'rejected'), headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it('carry one signature per secret while a secret rotates, and refuse an old timestamp', () => {
    const [next, previous] = [secret(), secret()];
    const headers = standardWebhookHeaders([next, previous], 'msg_1', BODY);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(BODY, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(BODY, headers)).toBeTruthy();
    const stale = standardWebhookHeaders([next], 'msg_1', BODY, Math.floor(Date.now() / 1000) - 600);
    expect(() => new Webhook(next).verify(BODY, stale)).toThrow(WebhookVerificationError);
  });
});
