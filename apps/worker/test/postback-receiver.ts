import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { JOBS } from '@funnel/contracts/jobs';
import { startQueueWorker } from '@funnel/server-runtime/job-queue';
import {
  createAffiliatePostbackProcessor,
  type AffiliatePostbackDeps,
} from '../src/final-outcome/affiliate-postback-processor.js';
import type { Pipeline } from './pipeline-fixture.js';

/** An affiliate's postback endpoint: a real HTTP server recording every request URL, answering from a script. */
export async function startReceiver(answers: number[]) {
  const urls: string[] = [];
  const server: Server = createServer((request, response) => {
    urls.push(request.url ?? '');
    response.statusCode = answers[urls.length - 1] ?? 200;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    urls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The affiliate-postback queue's worker over the pipeline's store and queues, silent, with `deps`. */
export function startPostbackQueueWorker(
  pipeline: Pipeline,
  deps: Pick<AffiliatePostbackDeps, 'postbacks' | 'events' | 'returns' | 'sender'>,
  concurrency: number,
) {
  const logger = pino({ level: 'silent' });
  return startQueueWorker(
    JOBS.affiliatePostback,
    createAffiliatePostbackProcessor({
      store: pipeline.store,
      ...deps,
      logTtlMs: 3600_000,
      now: Date.now,
      logger,
    }),
    {
      connection: new Redis(pipeline.redisUrl, { maxRetriesPerRequest: null }),
      keyPrefix: pipeline.keyPrefix,
      concurrency,
      logger,
    },
  );
}
