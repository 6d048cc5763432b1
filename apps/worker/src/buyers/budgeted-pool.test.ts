import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Slots, readLimited } from './budgeted-pool.js';
import { RetryableLenderError } from './lender-errors.js';

describe('Slots', () => {
  it('hands a released slot to the longest waiter; a waiter whose signal fires leaves the line', async () => {
    const slots = new Slots(1);
    const release = await slots.take(undefined);
    const order: string[] = [];
    const gaveUp = new AbortController();
    const first = slots.take(gaveUp.signal).then(
      () => order.push('first'),
      () => order.push('first gave up'),
    );
    const second = slots.take(undefined).then((next) => {
      order.push('second');
      return next;
    });
    gaveUp.abort();
    await first;
    release();
    (await second)();
    expect(order).toEqual(['first gave up', 'second']);
    // Released twice is released once: one slot free, not two.
    release();
    await slots.take(undefined);
    await expect(slots.take(AbortSignal.timeout(20))).rejects.toThrow('aborted');
  });
});

describe('readLimited', () => {
  const answer = (chunks: Buffer[], headers: Record<string, string> = {}) => {
    const body = Readable.from(chunks);
    return { headers, body: body as never, destroyed: () => body.destroyed };
  };
  const kindOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'read',
      (error: unknown) => (error instanceof RetryableLenderError ? error.kind : 'other'),
    );

  it('reads an answer up to the limit', async () => {
    const { headers, body } = answer([Buffer.from('{"a":'), Buffer.from('1}')]);
    expect(await readLimited({ headers, body }, 7, 'POST /x')).toBe('{"a":1}');
  });

  it('gives up an answer whose Content-Length is over the limit before reading it', async () => {
    const response = answer([Buffer.alloc(10)], { 'content-length': '2000000' });
    expect(await kindOf(readLimited(response, 1000, 'POST /x'))).toBe('response_too_large');
    expect(response.destroyed()).toBe(true);
  });

  it('stops reading and destroys the body once the bytes read pass the limit', async () => {
    const response = answer(Array.from({ length: 100 }, () => Buffer.alloc(100)));
    expect(await kindOf(readLimited(response, 250, 'POST /x'))).toBe('response_too_large');
    expect(response.destroyed()).toBe(true);
  });
});
