import type {
  ScreeningCheck,
  ScreeningReason,
  ScreeningVerdict,
  ScreeningVerdictKind,
} from '@funnel/contracts/screening';
import type { EmailFinding, EmailScreen } from './email-screen.js';
import type { IpVelocity } from './ip-velocity.js';
import type { LitigatorList } from './litigator-list.js';

/** Where the Do Not Call registry stands for a phone (packages/db/src/do-not-call.ts). */
export interface DoNotCallLookup {
  (phone: string): Promise<{ listed: boolean; loadedAt: Date | undefined }>;
}

export interface ContactScreenDeps {
  /** The litigator list; none configured, the check is not run. */
  litigators?: LitigatorList | undefined;
  /** The registry in the system of record; none (no database), the check is not run. */
  doNotCall?: DoNotCallLookup | undefined;
  /** The email checks; none, the check is not run. */
  email?: EmailScreen | undefined;
  /** Leads per address; none, the check is not run. More than `maxPerWindow` from one address is a finding. */
  velocity?: { counter: IpVelocity; maxPerWindow: number } | undefined;
  /** The most screening waits for any check: one that takes longer counts as not done (`unchecked`). */
  timeoutMs: number;
  now: () => number;
}

/**
 * What each finding costs the score, and whether it alone blocks the lead (ADR 0029). A blocked lead is never
 * offered; a lead with any other finding goes on, flagged.
 */
export const REASON_RULES: Record<ScreeningReason, { points: number; blocks: boolean }> = {
  // A TCPA claim costs $500–$1,500 a call: no buyer wants the call.
  phone_litigator: { points: 100, blocks: true },
  // No one applying for a loan gives a throwaway address or a domain that does not exist.
  email_disposable: { points: 60, blocks: true },
  email_no_domain: { points: 60, blocks: true },
  email_no_mail: { points: 40, blocks: false },
  // Callable with the consent the borrower gave on submitting, but many buyers will not: flagged for them.
  phone_do_not_call: { points: 30, blocks: false },
  // Offices and mobile carriers put many people behind one address: flagged, for each buyer to weigh.
  ip_velocity: { points: 30, blocks: false },
  do_not_call_copy_stale: { points: 10, blocks: false },
};

/**
 * A check that did not answer in time fails open (the lead goes on) and costs the score these points; those
 * marked `flags` flag the lead, so a buyer can tell that nobody vouched for the number.
 */
export const UNCHECKED_RULES: Record<ScreeningCheck, { points: number; flags: boolean }> = {
  litigator: { points: 20, flags: true },
  do_not_call: { points: 10, flags: true },
  email: { points: 5, flags: false },
  velocity: { points: 5, flags: false },
};

/** The FTC's safe harbour wants a registry copy at most 31 days old. */
const DO_NOT_CALL_COPY_MAX_AGE_MS = 31 * 24 * 60 * 60 * 1000;

const EMAIL_REASONS: Partial<Record<EmailFinding, ScreeningReason>> = {
  disposable: 'email_disposable',
  no_domain: 'email_no_domain',
  no_mail: 'email_no_mail',
};

const TIMED_OUT: unique symbol = Symbol('timed out');
type TimedOut = typeof TIMED_OUT;

/** Screens a lead's phone and email with every configured check at once, and gives its verdict. */
export function createContactScreen(deps: ContactScreenDeps) {
  // A check that throws counts as one that did not answer.
  const bounded = <T>(work: Promise<T>): Promise<T | TimedOut> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<TimedOut>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), deps.timeoutMs);
    });
    const settled = work.catch((): TimedOut => TIMED_OUT);
    return Promise.race<T | TimedOut>([settled, late]).finally(() => clearTimeout(timer));
  };

  async function litigator(phone: string): Promise<ScreeningReason[] | ScreeningCheck> {
    if (!deps.litigators) return [];
    const finding = await bounded(deps.litigators.lookup(phone));
    if (finding === TIMED_OUT || finding.kind === 'unchecked') return 'litigator';
    return finding.kind === 'listed' ? ['phone_litigator'] : [];
  }

  async function doNotCall(phone: string): Promise<ScreeningReason[] | ScreeningCheck> {
    if (!deps.doNotCall) return [];
    const status = await bounded(deps.doNotCall(phone));
    if (status === TIMED_OUT) return 'do_not_call';
    // No registry ever loaded: the operator does not screen against it, so there is nothing to say.
    if (!status.loadedAt) return [];
    const stale = deps.now() - status.loadedAt.getTime() > DO_NOT_CALL_COPY_MAX_AGE_MS;
    return [
      ...(status.listed ? (['phone_do_not_call'] as const) : []),
      ...(stale ? (['do_not_call_copy_stale'] as const) : []),
    ];
  }

  async function email(address: string): Promise<ScreeningReason[] | ScreeningCheck> {
    if (!deps.email) return [];
    const finding = await bounded(deps.email.screen(address));
    if (finding === TIMED_OUT || finding === 'unchecked') return 'email';
    const reason = EMAIL_REASONS[finding];
    return reason ? [reason] : [];
  }

  async function velocity(
    leadId: string,
    ip: string | undefined,
  ): Promise<ScreeningReason[] | ScreeningCheck> {
    if (!deps.velocity || !ip) return [];
    const count = await bounded(deps.velocity.counter.count(leadId, ip, deps.now()));
    if (count === TIMED_OUT) return 'velocity';
    return count !== undefined && count > deps.velocity.maxPerWindow ? ['ip_velocity'] : [];
  }

  return {
    async screen(contact: {
      leadId: string;
      phone: string;
      email: string;
      /** The address the borrower submitted from (the consent record's). */
      ip?: string | undefined;
    }): Promise<ScreeningVerdict> {
      const started = deps.now();
      const results = await Promise.all([
        litigator(contact.phone),
        doNotCall(contact.phone),
        email(contact.email),
        velocity(contact.leadId, contact.ip),
      ]);
      const reasons = results.flatMap((r) => (typeof r === 'string' ? [] : r));
      const unchecked = results.filter((r): r is ScreeningCheck => typeof r === 'string');
      return { ...verdictOf(reasons, unchecked), ms: Math.max(0, Math.round(deps.now() - started)) };
    },
  };
}

export type ContactScreen = ReturnType<typeof createContactScreen>;

/** The verdict and score of what the checks found (ADR 0029's table). */
export function verdictOf(
  reasons: readonly ScreeningReason[],
  unchecked: readonly ScreeningCheck[],
): Omit<ScreeningVerdict, 'ms'> {
  const points =
    reasons.reduce((sum, reason) => sum + REASON_RULES[reason].points, 0) +
    unchecked.reduce((sum, check) => sum + UNCHECKED_RULES[check].points, 0);
  const verdict: ScreeningVerdictKind = reasons.some((reason) => REASON_RULES[reason].blocks)
    ? 'block'
    : reasons.length > 0 || unchecked.some((check) => UNCHECKED_RULES[check].flags)
      ? 'flag'
      : 'pass';
  return { verdict, score: Math.max(0, 100 - points), reasons: [...reasons], unchecked: [...unchecked] };
}
