import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuyerSchema } from '@funnel/contracts/buyers';
import { buildSubmissionPayload } from '@funnel/contracts/lender-network';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT as context } from '@funnel/contracts/sample-lead';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { LenderClient } from '../src/buyers/lender-client.js';
import { RetryableLenderError } from '../src/buyers/lender-errors.js';
import { Pipeline } from './pipeline-fixture.js';
import {
  buyersFile,
  startBuyersSandbox,
  startWaterfallWorker,
  storedSampleLead,
} from './waterfall-fixture.js';

const lead = storedSampleLead();

const syncPostBuyer = (id: string, baseUrl: string) =>
  BuyerSchema.parse({ id, protocol: 'sync-post', baseUrl, tier: 1, priceLadder: [50] });

/** The error kind a call failed with. */
async function failure(call: Promise<unknown>): Promise<{ kind: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RetryableLenderError);
  return { kind: (error as RetryableLenderError).kind };
}

/** Issue 28, point 2: an attempt's budget covers its wait for a connection, and answers are bounded. */
describe('buyer call budgets (real sandbox, real undici)', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;
  const held = async (id: string, key: string) => {
    const response = await fetch(`${sandbox.buyerUrl(id)}/_sandbox/attempts/${key}`);
    if (response.status === 404) return undefined;
    return ((await response.json()) as { payload: { MaxResponseTime: number } }).payload;
  };

  beforeAll(async () => {
    const buyer = (id: string, latencyMs: number) => ({
      id,
      protocol: 'sync-post' as const,
      seed: 7,
      interestShare: 1,
      maxValue: 500,
      latencyMinMs: latencyMs,
      latencyMaxMs: latencyMs,
    });
    sandbox = await startBuyersSandbox([buyer('slow', 3000), buyer('steady', 1500)]);
  });
  afterAll(() => sandbox.process.stop());

  it('an attempt whose budget ends while the only connection is busy ends by its budget, never sent', async () => {
    const adapter = createBuyerAdapter(syncPostBuyer('slow', sandbox.buyerUrl('slow')), undefined, {
      connections: 1,
    });
    try {
      let firstAnswered = false;
      const first = adapter
        .post(lead, { key: `${context.leadId}-1`, floor: 50, budgetMs: 8000 })
        .finally(() => (firstAnswered = true));
      const waiting = await failure(
        adapter.post(lead, { key: `${context.leadId}-2`, floor: 50, budgetMs: 1000 }),
      );
      expect(waiting.kind).toBe('queue_timeout');
      // Ended by its own budget while the connection was still busy (the buyer answers after 3 s), not once the
      // connection came free.
      expect(firstAnswered).toBe(false);
      await first;
      expect(await held('slow', `${context.leadId}-1`)).toBeDefined();
      expect(await held('slow', `${context.leadId}-2`)).toBeUndefined();
    } finally {
      await adapter.close();
    }
  });

  it('MaxResponseTime is what remains when the request is sent: less after a wait for the connection', async () => {
    const adapter = createBuyerAdapter(syncPostBuyer('steady', sandbox.buyerUrl('steady')), undefined, {
      connections: 1,
    });
    try {
      const keys = [`${context.leadId}-3`, `${context.leadId}-4`];
      // Both start now with 10.3 s; the second waits ~1.5 s for the first's connection: 8.3 s less the way back.
      await Promise.all(keys.map((key) => adapter.post(lead, { key, floor: 50, budgetMs: 10_300 })));
      const [first, second] = await Promise.all(keys.map((key) => held('steady', key)));
      expect(first?.MaxResponseTime).toBe(9);
      expect(second?.MaxResponseTime).toBe(8);
    } finally {
      await adapter.close();
    }
  });
});

describe('answer size limit', () => {
  const FIFTY_MB = 50 * 1024 * 1024;
  let server: Server;
  let baseUrl: string;
  let bytesSent = 0;

  beforeAll(async () => {
    // An upstream answering 50 MB of JSON-ish bytes, streamed (chunked, no Content-Length) with backpressure.
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    server = createServer((request, response) => {
      request.resume();
      response.on('error', () => {});
      response.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const pump = () => {
        while (sent < FIFTY_MB) {
          sent += chunk.length;
          bytesSent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.once('close', () => response.removeAllListeners('drain'));
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a 50 MB sync-post answer ends as response_too_large, read no further than the limit', async () => {
    const adapter = createBuyerAdapter(syncPostBuyer('huge', baseUrl));
    try {
      const before = process.memoryUsage();
      bytesSent = 0;
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          failure(adapter.post(lead, { key: `${context.leadId}-${10 + i}`, floor: 50, budgetMs: 10_000 })),
        ),
      );
      const after = process.memoryUsage();
      expect(results.map((r) => r.kind)).toEqual(Array(4).fill('response_too_large'));
      // Four 50 MB answers (200 MB): each given up after ~1 MiB, so the process grows by nothing near their size
      // (a fifth of it at most: the collector's timing on a busy machine decides the rest).
      expect(after.rss - before.rss).toBeLessThan(40 * 1024 * 1024);
      expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(40 * 1024 * 1024);
      // The socket closed long before the answer was sent in full (what was written sits in kernel buffers).
      expect(bytesSent).toBeLessThan(4 * FIFTY_MB);
    } finally {
      await adapter.close();
    }
  });

  it('the lender network client bounds its answers the same way, with a configurable limit', async () => {
    const client = new LenderClient({
      baseUrl,
      connections: 2,
      connectTimeoutMs: 1000,
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 5000,
      maxResponseBytes: 64 * 1024,
    });
    try {
      const payload = buildSubmissionPayload(SAMPLE_LEAD, {
        ...context,
        idempotencyKey: `${context.leadId}-20`,
      });
      const { kind } = await failure(client.submit(payload, 5000));
      expect(kind).toBe('response_too_large');
    } finally {
      await client.close();
    }
  });

  it('a walk records the too-large answer with its attempt and decides the lead without waiting', async () => {
    const pipeline = new Pipeline();
    const worker = startWaterfallWorker(
      pipeline,
      buyersFile([{ id: 'huge', protocol: 'sync-post', baseUrl, tier: 1, priceLadder: [50] }]),
    );
    try {
      // A deadline far past the wait below: a walk that waited for it would leave no outcome to read.
      const id = await pipeline.submitLead({ deadlineMs: 600_000 });
      expect(await pipeline.finalOutcome(id)).toMatchObject({
        outcome: 'no_lender',
        reason: 'no_buyer_decided',
      });
      expect(worker.attemptsOf(id)).toMatchObject([
        { buyer: 'huge', result: 'error', errorKind: 'response_too_large' },
      ]);
    } finally {
      await worker.close();
      await pipeline.close();
    }
  });
});
