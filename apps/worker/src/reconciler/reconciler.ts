import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { IDEMPOTENCY_KEY_TTL_MS } from '@funnel/contracts/partner-api';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { enqueue } from '@funnel/server-runtime/job-queue';
import { isFinalOutcome } from '@funnel/contracts/lead-outcome';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { EvidencePolicy } from '@funnel/lead-store/submission-evidence';
import { evalScript } from '@funnel/lead-store/redis-script';

/** What the reconciler repaired; each kind is a metric label and a log line with the lead id. */
export type RepairKind =
  'enqueued' | 'deadline' | 'poll_scheduled' | 'idempotency_completed' | 'evidence_completed';

export interface ReconcilerDeps {
  store: LeadStore;
  redis: Redis;
  keyPrefix: string;
  submissionQueue: Queue;
  /** An outbox entry younger than this is left to the request that wrote it. */
  outboxAgeMs: number;
  /** A pending lead is ended as no lender this long after its deadline, if nothing else ended it. */
  deadlineGraceMs: number;
  noLenderFallbackUrl?: string | undefined;
  now: () => number;
  logger: Logger;
  /** The follow-ups a final outcome triggers (partner webhook, purge, retain), as the submission worker runs them. */
  onFinalOutcome: (leadId: string) => Promise<void>;
  onRepair?: (kind: RepairKind) => void;
  /**
   * With a system of record: the decided leads it holds without their submission's evidence (`submitted` event or
   * archived consent), and how the evidence is kept.
   */
  evidence?: { missing: () => Promise<string[]>; policy: EvidencePolicy };
}

// Binds a key still claimed to the lead its claim names, only if the claim has not changed since it was read.
const COMPLETE_CLAIM = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

// States in which a job will run again by itself.
const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

/**
 * Finds leads in states the pipeline should never leave them in and repairs each, idempotently (a repair that
 * races the normal path changes nothing: job ids are lead ids, final outcomes are never replaced):
 * - submitted with no job (an outbox entry left by a request that died, or a job that ended without a final
 *   outcome) → enqueue;
 * - pending past its deadline plus a grace period → no lender, with its follow-ups;
 * - posted but nothing scheduled to poll → schedule the poll (a new job, which polls since the lead is posted);
 * - an idempotency key left "in progress" whose lead exists → bind it to the lead;
 * - decided without its submission's evidence in the system of record (submitted before the evidence went with
 *   the submission, docs/adr/0026) → write it, from the lead, with the script a submission writes it with.
 */
export function createReconciler(deps: ReconcilerDeps) {
  const repaired = (kind: RepairKind, leadId: string, detail: Record<string, unknown> = {}) => {
    deps.onRepair?.(kind);
    deps.logger.warn({ leadId, repair: kind, ...detail }, 'reconciler repaired a lead');
  };

  const resubmit = (leadId: string) => enqueue(deps.submissionQueue, JOBS.submitLead, { leadId });

  async function outbox(): Promise<void> {
    for (const leadId of await deps.store.outboxBefore(deps.now() - deps.outboxAgeMs)) {
      const [job, outcome] = await Promise.all([
        deps.submissionQueue.getJob(leadId),
        deps.store.getOutcome(leadId),
      ]);
      if (!job && outcome && !isFinalOutcome(outcome.outcome)) {
        await resubmit(leadId);
        repaired('enqueued', leadId, { from: 'outbox' });
      }
      await deps.store.outboxDone(leadId);
    }
  }

  /**
   * Of `leadIds`, those whose job may not be live: no job hash, or one in BullMQ's failed or completed set. One
   * pipelined round trip for all of them; each one found is then checked properly before it is repaired.
   */
  async function withoutLiveJob(leadIds: string[]): Promise<Set<string>> {
    if (leadIds.length === 0) return new Set();
    const queueKey = (suffix: string) => `${queuePrefix(deps.keyPrefix)}:${JOBS.submitLead.queue}:${suffix}`;
    const pipeline = deps.redis.pipeline();
    for (const leadId of leadIds) {
      pipeline.exists(queueKey(leadId));
      pipeline.zscore(queueKey('failed'), leadId);
      pipeline.zscore(queueKey('completed'), leadId);
    }
    const results = ((await pipeline.exec()) ?? []).map(([, value]) => value);
    return new Set(
      leadIds.filter(
        (_, i) => results[i * 3] !== 1 || results[i * 3 + 1] !== null || results[i * 3 + 2] !== null,
      ),
    );
  }

  async function pending(): Promise<void> {
    const now = deps.now();
    // Thousands of leads can be pending, and this runs on the worker's event loop beside their polls: their
    // states and jobs are read in two pipelined round trips, not three round trips per lead.
    const leadIds = await deps.store.pendingBefore(Number.POSITIVE_INFINITY);
    const progress = await deps.store.getProgressMany(leadIds);
    const running = new Set(
      leadIds.filter((_, i) => {
        const lead = progress[i];
        return (
          lead?.submission &&
          !(lead.outcome && isFinalOutcome(lead.outcome.outcome)) &&
          now < Date.parse(lead.submission.deadlineAt) + deps.deadlineGraceMs &&
          now - Date.parse(lead.submission.submittedAt) >= deps.outboxAgeMs
        );
      }),
    );
    const suspects = await withoutLiveJob([...running]);
    for (const [i, leadId] of leadIds.entries()) {
      // A running lead whose job is plainly there needs no closer look.
      if (running.has(leadId) && !suspects.has(leadId)) continue;
      const lead = progress[i];
      if (!lead || !lead.submission) {
        await deps.store.pendingDone(leadId);
        continue;
      }
      if (lead.outcome && isFinalOutcome(lead.outcome.outcome)) {
        await deps.store.pendingDone(leadId);
        continue;
      }
      if (now >= Date.parse(lead.submission.deadlineAt) + deps.deadlineGraceMs) {
        const stored = await deps.store.setOutcome(leadId, {
          outcome: 'no_lender',
          reason: 'deadline',
          ...(deps.noLenderFallbackUrl ? { redirectUrl: deps.noLenderFallbackUrl } : {}),
        });
        if (stored && isFinalOutcome(stored.outcome)) await deps.onFinalOutcome(leadId);
        repaired('deadline', leadId);
        continue;
      }
      // Young submissions are the outbox's; this is for jobs that ended (or vanished) without a final outcome.
      if (now - Date.parse(lead.submission.submittedAt) < deps.outboxAgeMs) continue;
      const job = await deps.submissionQueue.getJob(leadId);
      const state = job ? await job.getState() : 'missing';
      if (LIVE_STATES.has(state)) continue;
      if (job) await job.remove();
      await resubmit(leadId);
      repaired(lead.submission.upstreamLeadId ? 'poll_scheduled' : 'enqueued', leadId, { jobState: state });
    }
  }

  async function idempotencyKeys(): Promise<void> {
    const match = `${deps.keyPrefix}partner-idempotency:*`;
    let cursor = '0';
    do {
      const [next, keys] = await deps.redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const value = await deps.redis.get(key);
        const leadId = value?.startsWith('~in-progress:') ? value.split(':')[2] : undefined;
        if (!leadId || !(await deps.redis.exists(deps.store.key(leadId)))) continue;
        const done = await evalScript(
          deps.redis,
          COMPLETE_CLAIM,
          1,
          key,
          value!,
          leadId,
          IDEMPOTENCY_KEY_TTL_MS,
        );
        if (done === 1) repaired('idempotency_completed', leadId);
      }
    } while (cursor !== '0');
  }

  /**
   * A lead found here whose evidence is already written (its events still on their way to PostgreSQL) is left
   * as it is: only what was written now counts as a repair.
   */
  async function evidence(): Promise<void> {
    if (!deps.evidence) return;
    for (const leadId of await deps.evidence.missing()) {
      if ((await deps.store.completeSubmission(leadId, deps.evidence.policy)) === 'completed') {
        repaired('evidence_completed', leadId);
      }
    }
  }

  /** One pass over everything; safe to run concurrently with the pipeline and with itself. */
  return async function reconcile(): Promise<void> {
    await outbox();
    await pending();
    await idempotencyKeys();
    await evidence();
  };
}
