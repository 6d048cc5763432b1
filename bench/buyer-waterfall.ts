// Buyer waterfall (issue 13): the same 1,000 sandbox leads (seeded profiles) sold through the buyers' waterfall
// and through the single lender network, in the same run, against one sandbox process.
//
// Sandbox profiles (the ones `npm start` runs, config/sandbox-buyers.example.json, with the worker's buyers from
// config/buyers.example.json; only base URLs and the prime buyer's hourly cap are changed here):
// - prime-market, sync-post, tier 1, ladder 80/50/20: wants half the leads, values each uniformly in $0-140,
//   bids 30% of the way from the floor to its value; only leads of $500+, income $2,000+, credit FAIR or better.
// - lead-network, lead-service, tier 2, paid $30 a sale: sells 45% of leads, half of them after 2-10 s pending.
// - subprime-market, sync-post, tier 3, ladder 20/2/0: ten states, wants 60% of leads, values them $0-30.
// The single-network setup is the worker without a buyers file, posting to the sandbox's root network set up as
// lead-network (same shares, pending and latency), each sale paid lead-network's $30.
//
// The waterfall runs on two workers; one is SIGKILLed once a third of its leads are decided, and started again.
// Printed: sold rate and revenue per lead of each setup and their ratio (goal ≥ 1.3×); the share of leads
// decided before their deadline; caps exceeded (0); attempts repeated at a buyer (0).
// BENCH_SABOTAGE=buyer-waterfall gives the waterfall its buyers file with the tiers reversed: subprime-market asked
// first sells every lead it wants (about 42 %), two in three of them for under $6, lead-network gets what is left
// and prime-market comes last. The single network is unchanged; revenue per lead must fail its 1.3× (about 1.15×).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuyersFileSchema, type BuyersFile } from '@funnel/contracts/buyers';
import { SandboxBuyersStatsSchema, type SandboxBuyerInput } from '@funnel/contracts/sandbox-buyers';
import { EncryptionKeysSchema } from '@funnel/lead-store/encryption-keys';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { benchSeed, sabotaged, smoke } from './lib/bench-options.js';
import { REPO_ROOT, withServices, type Service } from './lib/processes.js';
import { fmt, recordSeed, report } from './lib/report.js';
import { leadProfiles, submitLeads, waitForOutcomes } from './lib/seeded-leads.js';
import {
  benchSecrets,
  redisClient,
  startRedis,
  startSandbox,
  startWorker as startBenchWorker,
} from './lib/services.js';

const LEADS = smoke ? 40 : 1_000;
const SEED = benchSeed(20_251_125);
recordSeed(SEED);
console.log(`seed ${SEED} (--seed=<n> draws another)`);
const DEADLINE_MS = 310_000;
// Below what prime-market would buy uncapped (about 110 of 1,000), so the cap binds while two workers race.
const PRIME_CAP_PER_HOUR = smoke ? 3 : 80;

const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
const sandboxBuyers = (readJson('config/sandbox-buyers.example.json') as { buyers: SandboxBuyerInput[] })
  .buyers;
const networkProfile = sandboxBuyers.find((b) => b.id === 'lead-network')!;
if (networkProfile.protocol !== 'lead-service') throw new Error('lead-network must speak lead-service');

await withServices(async (track) => {
  const redis = track(await startRedis());
  const secrets = benchSecrets();
  const cipher = new FieldCipher(EncryptionKeysSchema.parse(secrets.FIELD_ENCRYPTION_KEYS!));
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-buyers-'));
  const sandbox = track(
    await startSandbox(
      {
        // The root network plays lead-network for the single-network setup.
        SANDBOX_SEED: String(networkProfile.seed),
        SANDBOX_SOLD_SHARE: String(networkProfile.soldShare),
        SANDBOX_PENDING_SHARE: String(networkProfile.pendingShare),
        SANDBOX_PENDING_MIN_MS: String(networkProfile.pendingMinMs),
        SANDBOX_PENDING_MAX_MS: String(networkProfile.pendingMaxMs),
        SANDBOX_LATENCY_MIN_MS: String(networkProfile.latencyMinMs),
        SANDBOX_LATENCY_MAX_MS: String(networkProfile.latencyMaxMs),
        SANDBOX_REJECT_REDIRECT: 'false',
      },
      { buyers: sandboxBuyers },
    ),
  );

  const example = BuyersFileSchema.parse(readJson('config/buyers.example.json'));
  // The bad product (see the header): the example's tiers reversed, its last buyer asked first.
  const tiers = example.buyers.map((buyer) => buyer.tier);
  const tierOf = (tier: number) =>
    sabotaged('buyer-waterfall') ? Math.min(...tiers) + Math.max(...tiers) - tier : tier;
  const buyers: BuyersFile = {
    ...example,
    buyers: example.buyers.map((buyer) => ({
      ...buyer,
      tier: tierOf(buyer.tier),
      baseUrl: `${sandbox.url}/buyers/${buyer.id}`,
      ...(buyer.id === 'prime-market' ? { caps: { ...buyer.caps, perHour: PRIME_CAP_PER_HOUR } } : {}),
    })),
  };
  const buyersFile = path.join(dir, 'buyers.json');
  writeFileSync(buyersFile, JSON.stringify(buyers));
  const networkPrice = buyers.buyers.find((b) => b.id === 'lead-network')!.price ?? 0;

  const startWorker = (keyPrefix: string, extra: Record<string, string>) =>
    startBenchWorker(redis.url, keyPrefix, secrets, { WORKER_CONCURRENCY: '100', ...extra });
  const client = redisClient(redis.url);

  // 1. The single network: no buyers file, as before issue 13.
  const single = { prefix: 'bench-single:', workers: [] as Service[] };
  for (let i = 0; i < 2; i++) {
    single.workers.push(track(await startWorker(single.prefix, { LENDER_NETWORK_URL: sandbox.url })));
  }
  const singleIds = await submitLeads(client, single.prefix, cipher, leadProfiles(LEADS, SEED), DEADLINE_MS);
  const singleStore = new LeadStore(client, cipher, { keyPrefix: single.prefix, ttlMs: 3_600_000 });
  const singleResult = await waitForOutcomes(singleStore, singleIds, DEADLINE_MS + 60_000);
  for (const worker of single.workers) await worker.stop();

  // 2. The waterfall, on two workers, one of them killed mid-walk and started again.
  const waterfall = { prefix: 'bench-waterfall:' };
  const env = { BUYERS_FILE: buyersFile, LENDER_NETWORK_URL: sandbox.url };
  const runStartedAt = Date.now();
  const victim = track(await startWorker(waterfall.prefix, env));
  track(await startWorker(waterfall.prefix, env));
  const ids = await submitLeads(client, waterfall.prefix, cipher, leadProfiles(LEADS, SEED), DEADLINE_MS);
  const store = new LeadStore(client, cipher, { keyPrefix: waterfall.prefix, ttlMs: 3_600_000 });
  let killed = false;
  let killedAt = 0;
  const result = await waitForOutcomes(store, ids, DEADLINE_MS + 60_000, (decided) => {
    if (killed || decided < ids.length / 3) return;
    killed = true;
    killedAt = decided;
    void victim.kill().then(async () => track(await startWorker(waterfall.prefix, env)));
  });
  const runEndedAt = Date.now();

  // Revenue: the price of each sale, as the walk recorded it.
  const sales = await Promise.all(
    ids.map(async (id) => {
      const raw = await client.hget(`${waterfall.prefix}waterfall:${id}`, 'result');
      return raw ? (JSON.parse(raw) as { buyer: string; price: number }) : undefined;
    }),
  );
  const revenue = sales.reduce((sum, sale) => sum + (sale?.price ?? 0), 0);
  const stats = SandboxBuyersStatsSchema.parse(
    await (await fetch(`${sandbox.url}/_sandbox/buyers`)).json(),
  ).buyers;
  const hourWindows = Math.floor(runEndedAt / 3_600_000) - Math.floor(runStartedAt / 3_600_000) + 1;
  let capsExceeded = 0;
  for (const buyer of buyers.buyers) {
    const sold = sales.filter((sale) => sale?.buyer === buyer.id).length;
    if (buyer.caps.perHour) capsExceeded += Math.max(0, sold - buyer.caps.perHour * hourWindows);
    if (buyer.caps.perDay) capsExceeded += Math.max(0, sold - buyer.caps.perDay * (hourWindows > 1 ? 2 : 1));
  }
  const repeated = stats.reduce((sum, b) => sum + b.repeatedAttempts, 0);
  const replays = stats.reduce((sum, b) => sum + b.replays, 0);
  client.disconnect();
  rmSync(dir, { recursive: true, force: true });

  const singleRevenuePerLead = (singleResult.sold * networkPrice) / LEADS;
  const revenuePerLead = revenue / LEADS;
  const bySeller = buyers.buyers
    .map((b) => `${b.id} ${sales.filter((s) => s?.buyer === b.id).length}`)
    .join(', ');
  report({
    measure: `sold rate, ${LEADS.toLocaleString('en-US')} leads (waterfall: ${bySeller})`,
    product: `${((100 * result.sold) / LEADS).toFixed(1)}% (waterfall)`,
    baseline: `${((100 * singleResult.sold) / LEADS).toFixed(1)}% (single network)`,
    ratio: fmt.ratio(result.sold / Math.max(singleResult.sold, 1)),
  });
  const ratio = revenuePerLead / Math.max(singleRevenuePerLead, 0.01);
  report({
    measure: `revenue per lead, ${LEADS.toLocaleString('en-US')} leads`,
    product: `$${revenuePerLead.toFixed(2)} (waterfall)`,
    baseline: `$${singleRevenuePerLead.toFixed(2)} (single network at $${networkPrice} a sale)`,
    ratio: fmt.ratio(ratio),
    goals: [{ measured: ratio, op: '>=', limit: 1.3, unit: '×' }],
  });
  report({
    measure: 'leads decided before their deadline',
    product: `${((100 * result.beforeDeadline) / LEADS).toFixed(1)}% (waterfall)`,
    baseline: `${((100 * singleResult.beforeDeadline) / LEADS).toFixed(1)}% (single network)`,
    goals: [{ of: 'not decided', measured: LEADS - result.beforeDeadline, op: '<=', limit: 0 }],
  });
  report({
    measure: `caps exceeded, two workers (prime-market ${PRIME_CAP_PER_HOUR}/h over ${hourWindows} hour window(s))`,
    product: String(capsExceeded),
    baseline: '–',
    goals: [{ measured: capsExceeded, op: '<=', limit: 0 }],
  });
  report({
    measure: `attempts repeated at a buyer, one worker SIGKILLed at ${killedAt} decided (${replays} idempotent replays)`,
    product: String(repeated),
    baseline: '–',
    goals: [
      { measured: repeated, op: '<=', limit: 0 },
      { of: 'workers killed', measured: killed ? 1 : 0, op: '>=', limit: 1 },
    ],
  });
});
