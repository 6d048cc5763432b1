// Seeded lead batches for the buyer benchmarks (buyer-waterfall.ts, auction.ts): the same lead profiles in every
// run with the same seed, submitted the way the BFF submits them, and their outcomes counted.
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { CREDIT_SCORE_VALUES, LOAN_AMOUNT_VALUES, MONTHLY_INCOME_VALUES } from '@funnel/contracts/options';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from '@funnel/contracts/sample-lead';
import type { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore, META } from '@funnel/lead-store/lead-store';
import { submissionEvidence } from '@funnel/lead-store/submission-evidence';
import { enqueue } from '@funnel/server-runtime/job-queue';

const STATES = ['TX', 'CA', 'FL', 'NY', 'OH', 'NV', 'WA', 'GA', 'IL', 'CO'] as const;

/** mulberry32: the same draws in every run with the same seed. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** The lead profiles: state, amount, income and credit vary; everything else is the sample lead. */
export function leadProfiles(count: number, seed: number): Record<string, unknown>[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => ({
    state: pick(random, STATES),
    loan_amount: pick(random, LOAN_AMOUNT_VALUES),
    income_net_monthly: pick(random, MONTHLY_INCOME_VALUES),
    credit_score: pick(random, CREDIT_SCORE_VALUES),
  }));
}

/** A setup's leads, submitted the way the BFF submits them, under its own key prefix; their ids in order. */
export async function submitLeads(
  redis: Redis,
  keyPrefix: string,
  cipher: FieldCipher,
  profiles: Record<string, unknown>[],
  deadlineMs: number,
  /** Leads submitted per second, like borrowers arriving; all at once when left out. */
  perSecond?: number,
): Promise<string[]> {
  const startedAt = Date.now();
  const store = new LeadStore(redis, cipher, { keyPrefix, ttlMs: 3_600_000 });
  const queue = new Queue(JOBS.submitLead.queue, { connection: redis, prefix: queuePrefix(keyPrefix) });
  const ids: string[] = [];
  for (const [i, profile] of profiles.entries()) {
    if (perSecond) await sleep(Math.max(0, startedAt + (i * 1000) / perSecond - Date.now()));
    const id = await store.create({ ...SAMPLE_LEAD, ...profile }, SAMPLE_SUBMISSION_CONTEXT.tracking);
    const now = Date.now();
    const consent = {
      version: CONSENT_VERSION,
      textSha256: 'a'.repeat(64),
      button: 'REQUEST_FUNDS' as const,
      at: new Date(now).toISOString(),
      ip: SAMPLE_SUBMISSION_CONTEXT.userIp,
      userAgent: SAMPLE_SUBMISSION_CONTEXT.userAgent,
      pageUrl: SAMPLE_SUBMISSION_CONTEXT.webSiteUrl,
    };
    await store.startSubmission(
      id,
      { submittedAt: new Date(now).toISOString(), deadlineAt: new Date(now + deadlineMs).toISOString() },
      // The consent copy kept as the BFF keeps it; no system of record drains events in the benchmarks.
      submissionEvidence(
        {
          leadId: id,
          consent,
          fields: { ...SAMPLE_LEAD, ...profile },
          source: 'funnel',
          submittedAt: new Date(now),
        },
        { retentionMs: 3600_000, withEvents: false },
      ),
      { [META.consent]: JSON.stringify(consent) },
    );
    await store.setOutcome(id, { outcome: 'pending' });
    await enqueue(queue, JOBS.submitLead, { leadId: id });
    ids.push(id);
  }
  await queue.close();
  return ids;
}

export interface Decided {
  decided: number;
  beforeDeadline: number;
  sold: number;
  /** Each decided lead's time from submission to its outcome, ms. */
  decisionMs: number[];
}

/** Waits until every lead has a final outcome (or `giveUpMs` has passed), then counts. */
export async function waitForOutcomes(
  store: LeadStore,
  ids: string[],
  giveUpMs: number,
  onProgress?: (decided: number) => void,
): Promise<Decided> {
  const giveUp = Date.now() + giveUpMs;
  for (;;) {
    const progress = await Promise.all(ids.map((id) => store.getProgress(id)));
    const result: Decided = { decided: 0, beforeDeadline: 0, sold: 0, decisionMs: [] };
    for (const p of progress) {
      const outcome = p?.outcome;
      if (!outcome || outcome.outcome === 'pending') continue;
      result.decided += 1;
      if (outcome.outcome === 'sold') result.sold += 1;
      const deadline = p.submission ? Date.parse(p.submission.deadlineAt) : 0;
      if (outcome.reason !== 'deadline' && Date.parse(outcome.at) <= deadline) result.beforeDeadline += 1;
      if (p.submission) result.decisionMs.push(Date.parse(outcome.at) - Date.parse(p.submission.submittedAt));
    }
    onProgress?.(result.decided);
    if (result.decided === ids.length || Date.now() > giveUp) return result;
    await sleep(250);
  }
}
