import { createServer } from 'node:net';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { deliveryAttemptEvent, errorKindOf } from './delivery-attempts.js';
import { WebhookAddressRefusedError, WebhookSender } from './webhook-sender.js';

const STARTED = Date.parse('2026-11-26T10:00:00.000Z');

/** What the processor reads of a BullMQ job: how many attempts were made, and its attempts and backoff. */
const job = (attemptsMade: number, attempts = 8) =>
  ({ attemptsMade, opts: { attempts, backoff: { type: 'exponential', delay: 10_000 } } }) as unknown as Job;

const attempt = {
  leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
  channel: 'affiliate_postback' as const,
  target: 'aff-7',
  url: 'https://track.example/pb?token=secret-token&click=clk-9',
  event: 'sold',
  started: STARTED,
  ended: STARTED + 120,
};

describe('a webhook or postback attempt as a lead event', () => {
  it('keeps the host, never the address, and says when the queue tries again (exponential backoff)', () => {
    const third = deliveryAttemptEvent(job(2), { ...attempt, end: { result: 'failed', status: 503 } });
    expect(third).toMatchObject({
      eventId: 'k3J9xQ2mVb7TzR1pL8wN4A.delivery.affiliate_postback.aff-7.sold.3',
      host: 'track.example',
      attempt: 3,
      maxAttempts: 8,
      latencyMs: 120,
      // After the third failure BullMQ waits 2^2 × 10 s.
      nextAttemptAt: new Date(STARTED + 120 + 40_000).toISOString(),
      gaveUp: false,
    });
    expect(JSON.stringify(third)).not.toContain('secret-token');
  });

  it('gives up after the last attempt, or at once on a refused address, with no next attempt', () => {
    const last = deliveryAttemptEvent(job(7), {
      ...attempt,
      end: { result: 'failed', errorKind: 'timeout' },
    });
    expect(last).toMatchObject({ attempt: 8, gaveUp: true, errorKind: 'timeout' });
    expect(last).not.toHaveProperty('nextAttemptAt');
    const refused = deliveryAttemptEvent(job(0), {
      ...attempt,
      end: { result: 'refused', errorKind: 'not_public' },
    });
    expect(refused).toMatchObject({ attempt: 1, gaveUp: true });
    const delivered = deliveryAttemptEvent(job(1), { ...attempt, end: { result: 'delivered', status: 200 } });
    expect(delivered).toMatchObject({ attempt: 2, gaveUp: false });
    expect(delivered).not.toHaveProperty('nextAttemptAt');
  });

  it("names a failure's kind from the error a real call raises, never its message", async () => {
    // A port nothing listens on: the connection is refused.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const sender = new WebhookSender({
      allowPrivateNetworks: true,
      connectTimeoutMs: 1000,
      responseTimeoutMs: 1000,
    });
    const error = await sender.get(`http://127.0.0.1:${port}/pb`, {}).catch((e: unknown) => e);
    await sender.close();
    expect(errorKindOf(error)).toBe('connection_refused');
    expect(errorKindOf(new WebhookAddressRefusedError('address http://10.0.0.1 is not public'))).toBe(
      'not_public',
    );
    expect(errorKindOf(new Error('something else'))).toBe('network');
  });
});
