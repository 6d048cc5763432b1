import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ReturnsCaller } from './returns-caller.js';

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  path: string;
  body: { reference: string; reason: string };
}

/** The product's buyer API as the caller sees it: records each return, answers 201 (or `status`). */
async function startBuyerApi(status = 201) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({
        at: Date.now(),
        headers: request.headers,
        path: request.url ?? '',
        body: JSON.parse(text),
      });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const references = Array.from({ length: 60 }, (_, i) => `lead-returns-${String(i).padStart(6, '0')}`);

describe('a simulated buyer returning leads', () => {
  const closing: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it('returns a seeded share of its sales after the delay, by the buyer API with its key and the reference as idempotency key', async () => {
    const api = await startBuyerApi();
    closing.push(api.close);
    const profile = {
      rate: 0.25,
      delayMinMs: 100,
      delayMaxMs: 200,
      apiKey: 'fbk_test',
      reasons: ['invalid_contact', 'duplicate'] as const,
    };
    const caller = new ReturnsCaller(
      { id: 'prime', seed: 7 },
      { ...profile, reasons: [...profile.reasons] },
      api.url,
    );
    closing.push(() => caller.close());
    for (const reference of references) caller.sold(reference);
    await until(() => caller.counts().accepted === api.received.length && api.received.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const returned = api.received.length;
    // 60 sales at 25 %: seeded, so always the same number, and near a quarter.
    expect(returned).toBeGreaterThan(7);
    expect(returned).toBeLessThan(23);
    expect(caller.counts()).toEqual({ sent: returned, accepted: returned, refused: 0, failed: 0 });
    for (const call of api.received) {
      expect(call.path).toBe('/api/v1/buyer/returns');
      expect(call.headers.authorization).toBe('Bearer fbk_test');
      expect(call.headers['idempotency-key']).toBe(`sandbox-return-${call.body.reference}`);
      expect(references).toContain(call.body.reference);
      expect(['invalid_contact', 'duplicate']).toContain(call.body.reason);
    }

    // Another run with the same seed returns exactly the same leads.
    const again = await startBuyerApi();
    closing.push(again.close);
    const replay = new ReturnsCaller(
      { id: 'prime', seed: 7 },
      { ...profile, reasons: [...profile.reasons] },
      again.url,
    );
    closing.push(() => replay.close());
    for (const reference of references) replay.sold(reference);
    await until(() => again.received.length === returned);
    const sorted = (calls: Received[]) => calls.map((c) => `${c.body.reference}:${c.body.reason}`).sort();
    expect(sorted(again.received)).toEqual(sorted(api.received));
  });

  it('counts refusals apart, and sends nothing once closed', async () => {
    const api = await startBuyerApi(422);
    closing.push(api.close);
    const caller = new ReturnsCaller(
      { id: 'late', seed: 1 },
      { rate: 1, delayMinMs: 0, delayMaxMs: 0, apiKey: 'k', reasons: ['fraud'] },
      api.url,
    );
    caller.sold(references[0]!);
    await until(() => caller.counts().refused === 1);
    caller.sold(references[1]!);
    caller.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.received).toHaveLength(1);
    expect(caller.counts()).toEqual({ sent: 1, accepted: 0, refused: 1, failed: 0 });
  });
});
