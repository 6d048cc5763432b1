// Poll lateness: two workers holding 3,000 leads that the sandbox keeps pending for 90 s, measured as the gap
// between two pings of one lead minus the 2 s interval (seen by a recording proxy in front of the sandbox), and
// compared bucket by bucket with what the workers' own lateness histogram recorded.
// Baseline: a no-op BullMQ poller with as many jobs, `moveToDelayed` + `DelayedError` every 2 s. Also reports
// the time from the sandbox's decision to the outcome stored in Redis.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EncryptionKeysSchema } from '@funnel/lead-store/encryption-keys';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { smoke } from './lib/bench-options.js';
import { partnerKey, partnerLeadBody } from '@funnel/testing/partner-lead';
import { freePort } from '@funnel/testing/processes';
import { CPU, REPO_ROOT, startService, withServices } from './lib/processes.js';
import { bucketCounts, parseHistogram, quantileBucket, sumHistograms } from './lib/histogram.js';
import { startRecordingProxy } from './lib/recording-proxy.js';
import { fmt, report } from './lib/report.js';
import {
  benchSecrets,
  redisClient,
  startBff,
  startRedis,
  startSandbox,
  startWorker,
} from './lib/services.js';
import { percentile } from './lib/stats.js';
import path from 'node:path';

const LEADS = smoke ? 100 : 3_000;
const PENDING_MS = smoke ? 8_000 : 90_000;
const INTERVAL_MS = 2_000;
const LATENESS_METRIC = 'funnel_poll_lateness_seconds';

await withServices(async (track) => {
  const redis = track(await startRedis());
  const secrets = benchSecrets();
  const sandbox = track(
    await startSandbox({
      SANDBOX_PENDING_SHARE: '1',
      SANDBOX_PENDING_MIN_MS: String(PENDING_MS),
      SANDBOX_PENDING_MAX_MS: String(PENDING_MS),
      SANDBOX_SOLD_SHARE: '0.7',
      SANDBOX_LATENCY_MIN_MS: '5',
      SANDBOX_LATENCY_MAX_MS: '20',
    }),
  );
  const proxy = await startRecordingProxy(sandbox.url);
  const partner = partnerKey('bench', 999_999);
  // The BFF only takes the leads in; on the load CPU it does not take the worker's CPU while it does, so the
  // worker has its CPU to itself, as the baseline poller has.
  const bff = track(
    await startBff({
      redisUrl: redis.url,
      cpu: CPU.load,
      secrets,
      env: { PARTNER_API_KEYS: partner.entry, LOG_LEVEL: 'warn' },
    }),
  );
  // Two workers, as an operator runs them: both poll the same leads, each exposes its metrics. Both share the
  // server CPU, so together they have what the baseline poller has.
  const metricsUrls: string[] = [];
  for (const name of ['worker-a', 'worker-b']) {
    const metricsPort = await freePort();
    metricsUrls.push(`http://127.0.0.1:${metricsPort}/metrics`);
    track(
      await startWorker(
        redis.url,
        'bench:',
        secrets,
        { LENDER_NETWORK_URL: proxy.url, POLL_INTERVAL_MS: String(INTERVAL_MS) },
        { name, metricsPort },
      ),
    );
  }

  // Post every lead through the partner API, 50 at a time.
  const leadIds: string[] = [];
  let posted = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (posted < LEADS) {
        posted++;
        const response = await fetch(`${bff.url}/api/v1/partner/leads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(partnerLeadBody()),
        });
        if (response.status !== 202)
          throw new Error(`partner post answered ${response.status}: ${await response.text()}`);
        leadIds.push(((await response.json()) as { leadId: string }).leadId);
      }
    }),
  );
  await sleep(PENDING_MS + 10_000);

  const pings = [...proxy.pingsAt.values()];
  const lateness = pings.flatMap((times) => times.slice(1).map((t, i) => t - times[i]! - INTERVAL_MS));
  // While 3,000 posts arrive at once, pings that fall due queue behind the posts still waiting (BullMQ serves
  // its wait list in order); the steady state starts once every lead has been pinged once.
  const lastFirstPing = Math.max(...pings.map((times) => times[0] ?? 0));
  const steadyLateness = pings.flatMap((times) =>
    times.slice(1).flatMap((t, i) => (times[i]! >= lastFirstPing ? [t - times[i]! - INTERVAL_MS] : [])),
  );
  const client = redisClient(redis.url);
  const store = new LeadStore(
    client,
    new FieldCipher(EncryptionKeysSchema.parse(secrets.FIELD_ENCRYPTION_KEYS!)),
    { keyPrefix: 'bench:', ttlMs: 3_600_000 },
  );
  // The sandbox decides PENDING_MS after it first received the lead; the proxy saw that post first.
  const sandboxLeads = await Promise.all(
    leadIds.map(async (id) => {
      const lead = (await (await fetch(`${sandbox.url}/_sandbox/leads/${id}`)).json()) as {
        networkLeadId: string;
        receivedAt: string;
      };
      const outcome = await store.getOutcome(id);
      return {
        decidedAt: Date.parse(lead.receivedAt) + PENDING_MS,
        storedAt: outcome ? Date.parse(outcome.at) : NaN,
      };
    }),
  );
  client.disconnect();
  await proxy.close();
  // What the workers themselves recorded (issue 28: from the due time stored with each job, whichever worker
  // polled it), both workers' histograms summed, against the proxy's gaps put in the same buckets.
  const recorded = sumHistograms(
    await Promise.all(
      metricsUrls.map(async (url) => parseHistogram(await (await fetch(url)).text(), LATENESS_METRIC)),
    ),
  );
  const decisionToStored = sandboxLeads.map((l) => l.storedAt - l.decidedAt);
  const undecided = decisionToStored.filter((ms) => Number.isNaN(ms)).length;

  // The baseline runs alone afterwards, on the same CPU, with as many jobs and as many polls per job.
  const pollsPerJob = Math.round(PENDING_MS / INTERVAL_MS);
  const gapsDir = mkdtempSync(path.join(tmpdir(), 'bench-poller-'));
  const gapsFile = path.join(gapsDir, 'gaps.json');
  const bare = await startService({
    name: 'bare-poller',
    command: process.execPath,
    args: ['--conditions=source', '--import', 'tsx', path.join(REPO_ROOT, 'bench/baselines/bare-poller.ts')],
    cpu: CPU.server,
    // The gaps go through a file: 100k+ numbers are more than the output kept from a process.
    env: { REDIS_URL: redis.url, JOBS: String(LEADS), POLLS: String(pollsPerJob), GAPS_FILE: gapsFile },
    ready: (output) => output.includes('ready'),
  });
  const deadline = Date.now() + PENDING_MS * 3 + 60_000;
  while (Date.now() < deadline && !/^done$/m.test(bare.output())) await sleep(1000);
  await bare.stop();
  if (!existsSync(gapsFile)) throw new Error('the baseline poller did not finish its polls in time');
  const gaps = JSON.parse(readFileSync(gapsFile, 'utf8')) as number[];
  rmSync(gapsDir, { recursive: true, force: true });
  const baselineLateness = gaps.map((gap) => gap - INTERVAL_MS);

  const p99 = percentile(lateness, 99);
  const baseP99 = percentile(baselineLateness, 99);
  report({
    measure: `poll lateness p99, ${LEADS.toLocaleString('en-US')} pending leads (${lateness.length} gaps)`,
    product: `${fmt.ms(p99)} (p50 ${fmt.ms(percentile(lateness, 50))})`,
    baseline: `${fmt.ms(baseP99)} (p50 ${fmt.ms(percentile(baselineLateness, 50))}; no-op BullMQ poller, ${baselineLateness.length} gaps)`,
    ratio: fmt.ratio(p99 / Math.max(baseP99, 1)),
    goals: [
      { measured: p99 / Math.max(baseP99, 1), op: '<=', limit: 1.5, unit: '×' },
      { of: 'p99', measured: p99, op: '<=', limit: 250, unit: ' ms' },
    ],
  });
  // Information only; a short run on a busy machine may end before any lead's polls settle.
  if (steadyLateness.length === 0) {
    console.log('# poll lateness once every lead was pinged: no gap measured (no lead got that far)');
  } else {
    const steadyP99 = percentile(steadyLateness, 99);
    report({
      measure: `poll lateness p99 once every lead was pinged, information (${steadyLateness.length} gaps)`,
      product: `${fmt.ms(steadyP99)} (p50 ${fmt.ms(percentile(steadyLateness, 50))})`,
      baseline: `${fmt.ms(baseP99)} (no-op BullMQ poller)`,
      ratio: fmt.ratio(steadyP99 / Math.max(baseP99, 1)),
    });
  }
  const proxied = bucketCounts(
    recorded.bounds,
    lateness.map((ms) => ms / 1000),
  );
  const agreement = [50, 90, 99].map((q) => ({
    q,
    recorded: quantileBucket(recorded.counts, q),
    proxied: quantileBucket(proxied, q),
  }));
  const bucketName = (index: number) =>
    index < recorded.bounds.length ? `≤ ${recorded.bounds[index]} s` : `> ${recorded.bounds.at(-1)} s`;
  report({
    measure: `poll lateness buckets, workers' ${LATENESS_METRIC} (${recorded.counts.reduce((a, b) => a + b, 0)} polls, 2 workers) vs the proxy (${lateness.length} gaps), p50 / p90 / p99`,
    product: agreement.map((a) => bucketName(a.recorded)).join(' / '),
    baseline: agreement.map((a) => bucketName(a.proxied)).join(' / '),
    goals: [
      {
        of: 'buckets apart',
        measured: Math.max(...agreement.map((a) => Math.abs(a.recorded - a.proxied))),
        op: '<=',
        limit: 1,
      },
      // Two empty histograms agree: with nothing polled there is nothing to compare.
      { of: 'gaps', measured: lateness.length, op: '>=', limit: 1 },
    ],
  });
  const decided = decisionToStored.filter((ms) => !Number.isNaN(ms));
  report({
    measure: `upstream decision → outcome stored p99 (${decided.length} decided, ${undecided} not)`,
    product: decided.length ? fmt.ms(percentile(decided, 99)) : 'none',
    baseline: '–',
    goals: [
      { measured: decided.length ? percentile(decided, 99) : Number.NaN, op: '<=', limit: 2500, unit: ' ms' },
      { of: 'not decided', measured: undecided, op: '<=', limit: 0 },
    ],
  });
});
