/**
 * The fault suite: each scenario starts real processes of its own (BFF, workers, lender sandbox, redis-server),
 * drives traffic through them while something goes wrong, checks every lead and prints one table.
 *
 *   npm run test:faults                      # every scenario, full length
 *   npm run test:faults -- --short           # every scenario shortened, as `npm test` runs it
 *   npm run test:faults -- --only kills,...  # some scenarios by name
 *   npm run test:faults -- --seed 2          # the seed of the scenarios that take one (evidence; default 1)
 *
 * Exit code 1 when any scenario fails; the last line names the failed ones.
 */
import { runBigAnswers } from './faults/big-answers.js';
import { runEvidence } from './faults/evidence.js';
import { runFailover } from './faults/failover.js';
import { runKills } from './faults/kills.js';
import { runSlowBuyer } from './faults/slow-buyer.js';

/** Each scenario prints its own table and says whether it passed. */
const scenarios: Record<string, (short: boolean, seed: number) => Promise<boolean>> = {
  // Workers killed mid-walk, Redis kill -9 and back on its AOF, upstream faults (issue 9).
  kills: runKills,
  // 50 MB answers from the lender network, several in flight: the workers' RSS stays bounded (issue 28).
  'big-answers': runBigAnswers,
  // A primary, a replica and three Sentinels: the primary killed -9 under traffic, twice (issue 28).
  failover: runFailover,
  // One buyer answering in its budget less 1 s for half its leads; the other leads keep their pace (issue 28).
  'slow-buyer': runSlowBuyer,
  // The BFF killed -9 in bursts of submits: every decided lead keeps its submitted event and consent (issue 40).
  evidence: runEvidence,
};

async function main(): Promise<number> {
  const short = process.argv.includes('--short');
  const seedArg = process.argv.includes('--seed') ? process.argv[process.argv.indexOf('--seed') + 1] : '1';
  const seed = Number(seedArg);
  if (!Number.isInteger(seed) || seed < 1) {
    console.error(`--seed takes a whole number from 1, not ${seedArg}`);
    return 2;
  }
  const onlyArg = process.argv[process.argv.indexOf('--only') + 1];
  const only = process.argv.includes('--only') && onlyArg ? onlyArg.split(',') : Object.keys(scenarios);
  const unknown = only.filter((name) => !(name in scenarios));
  if (unknown.length > 0) {
    console.error(`unknown scenario ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}`);
    return 2;
  }
  const failed: string[] = [];
  for (const name of only) {
    console.log(`\n▶ fault scenario: ${name}${short ? ' (--short)' : ''}`);
    // A scenario that throws has failed; the others still run.
    const passed = await scenarios[name]!(short, seed).catch((error: unknown) => {
      console.error(error);
      return false;
    });
    if (!passed) failed.push(name);
  }
  console.log(
    failed.length === 0
      ? `\nfault suite PASS (${only.join(', ')})`
      : `\nfault suite FAIL: ${failed.join(', ')}`,
  );
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
