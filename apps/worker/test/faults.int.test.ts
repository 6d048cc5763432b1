import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

const WORKER = 'apps/worker/src/main.ts';
const FAST_RECOVERY = {
  LOG_LEVEL: 'info',
  POLL_INTERVAL_MS: '200',
  STALLED_INTERVAL_MS: '1000',
  LOCK_DURATION_MS: '2000',
};

function startWorker(pipeline: Pipeline, lenderUrl: string): Promise<AppProcess> {
  return startApp({
    entry: WORKER,
    env: pipeline.workerEnv(lenderUrl, FAST_RECOVERY),
    readyLog: /worker started/,
  });
}

describe('faults', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.process.stop();
  });

  it('a worker killed while 50 leads are pending: a new one finishes every lead, one post each', async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 0.5, pendingShare: 1, pendingMinMs: 3000, pendingMaxMs: 5000 });
    const pipeline = new Pipeline();
    const first = await startWorker(pipeline, sandbox.url);
    let second: AppProcess | undefined;
    try {
      const ids = await Promise.all(Array.from({ length: 50 }, () => pipeline.submitLead()));
      await expect
        .poll(
          async () =>
            (await Promise.all(ids.map((id) => pipeline.store.get(id)))).filter(
              (l) => l?.submission?.upstreamLeadId,
            ).length,
          {
            timeout: 15_000,
          },
        )
        .toBe(50);
      await first.kill();

      second = await startWorker(pipeline, sandbox.url);
      const outcomes = await Promise.all(ids.map((id) => pipeline.finalOutcome(id, 30_000)));
      expect(outcomes.every((o) => o.outcome === 'sold' || o.outcome === 'rejected')).toBe(true);
      const stats = await sandbox.stats();
      expect(stats.distinctLeads).toBe(50);
      for (const id of ids) expect(stats.postsByPartnerLeadId[id], id).toBe(1);
    } finally {
      await first.kill();
      await second?.stop();
      await pipeline.close();
    }
  });

  it('Redis restarts mid-run: drafts, jobs and outcomes survive and work resumes without restarting the apps', async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 1, pendingShare: 0 });
    const redisServer = await PrivateRedis.start();
    const pipeline = new Pipeline(redisServer.url);
    const worker = await startWorker(pipeline, sandbox.url);
    try {
      const draft = await pipeline.store.create({ first_name: 'Dana', ssn: '123456789' });
      const decidedId = await pipeline.submitLead();
      const decided = await pipeline.finalOutcome(decidedId);
      await sandbox.configure({ pendingShare: 1, pendingMinMs: 4000, pendingMaxMs: 5000 });
      const ids = await Promise.all(Array.from({ length: 10 }, () => pipeline.submitLead()));
      await expect
        .poll(
          async () =>
            (await Promise.all(ids.map((id) => pipeline.store.get(id)))).filter(
              (l) => l?.submission?.upstreamLeadId,
            ).length,
          {
            timeout: 10_000,
          },
        )
        .toBe(10);

      await redisServer.restart();

      expect((await pipeline.store.get(draft))?.fields).toMatchObject({
        first_name: 'Dana',
        ssn: '123456789',
      });
      expect(await pipeline.store.getOutcome(decidedId)).toEqual(decided);
      const outcomes = await Promise.all(ids.map((id) => pipeline.finalOutcome(id, 30_000)));
      expect(outcomes.map((o) => o.outcome)).toEqual(Array(10).fill('sold'));
      const stats = await sandbox.stats();
      for (const id of ids) expect(stats.postsByPartnerLeadId[id]).toBe(1);
    } finally {
      await worker.stop();
      await pipeline.close();
      await redisServer.stop();
    }
  });
});

/** A redis-server of this test's own, with AOF on, that can be restarted on the same port and data. */
class PrivateRedis {
  private constructor(
    readonly url: string,
    private readonly port: number,
    private readonly dir: string,
    private child: ChildProcess,
  ) {}

  static async start(): Promise<PrivateRedis> {
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'funnel-redis-'));
    const redis = new PrivateRedis(`redis://127.0.0.1:${port}`, port, dir, PrivateRedis.spawn(port, dir));
    await redis.waitUntilUp();
    return redis;
  }

  private static spawn(port: number, dir: string): ChildProcess {
    return spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
  }

  private async waitUntilUp(): Promise<void> {
    const probe = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error('private redis-server did not start');
  }

  async restart(): Promise<void> {
    await this.stopProcess();
    this.child = PrivateRedis.spawn(this.port, this.dir);
    await this.waitUntilUp();
  }

  private async stopProcess(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }

  async stop(): Promise<void> {
    await this.stopProcess();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
