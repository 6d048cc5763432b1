/**
 * What a lead is worth at each buyer, to rank an auction's candidates (issue 27, ADR 0020): not the price a
 * buyer names but what it is likely to pay and keep,
 *
 *   expected value = price × P(post accepted | buyer) × (1 − P(returned | buyer, sold)).
 *
 * Each probability is the mean of a Beta posterior: a Beta(α, β) prior updated with the buyer's counts over a
 * rolling window, (α + successes) / (α + β + trials). The prior is what a buyer with no history is believed to
 * do; the acceptance prior is optimistic on purpose, so a new buyer ranks near the top and is tried (and so
 * learned about) instead of starved behind buyers whose record is known. Its weight (α + β) is a few posts: the
 * buyer's own record outweighs it within a day of traffic. Pure: the counts are read from the system of record
 * by the caller.
 */

/** A Beta(α, β) prior: α prior successes and β prior failures, both > 0. */
export interface BetaPrior {
  alpha: number;
  beta: number;
}

/** A new buyer is believed to accept 3 posts in 4 (mean 0.75, weight 4 posts): tried before it is judged. */
export const ACCEPTANCE_PRIOR: BetaPrior = { alpha: 3, beta: 1 };
/** A new buyer is believed to return 1 sale in 20 (mean 0.05, weight 20 sales): returns are rare and slow. */
export const RETURN_PRIOR: BetaPrior = { alpha: 1, beta: 19 };

/** A buyer's record over the window. */
export interface BuyerRecord {
  /** Posts made to the buyer (for a direct-post buyer: attempts that got an answer). */
  posts: number;
  /** Of those, accepted (sold). */
  accepted: number;
  /** Sales whose return window has closed or that were returned, so each counts once it is known. */
  settledSales: number;
  /** Of those, returned. */
  returned: number;
}

/** One candidate of a lead: a buyer and the price it stands to pay (a bid, or a direct-post buyer's floor). */
export interface Candidate {
  buyer: string;
  price: number;
  record: BuyerRecord;
}

/** A candidate's value and every input of it: kept with the attempt, so the operator sees why a lead went where. */
export interface Valued extends Candidate {
  pAccepted: number;
  pReturned: number;
  expectedValue: number;
}

/** The mean of the Beta posterior after `successes` in `trials`. */
export function posteriorMean(successes: number, trials: number, prior: BetaPrior): number {
  if (!(prior.alpha > 0 && prior.beta > 0)) throw new RangeError('a Beta prior needs α > 0 and β > 0');
  if (!(successes >= 0 && trials >= successes)) throw new RangeError('expected 0 ≤ successes ≤ trials');
  return (prior.alpha + successes) / (prior.alpha + prior.beta + trials);
}

/** The candidate's expected value and its inputs. */
export function valueOf<C extends Candidate>(
  candidate: C,
  priors: { acceptance: BetaPrior; returns: BetaPrior } = {
    acceptance: ACCEPTANCE_PRIOR,
    returns: RETURN_PRIOR,
  },
): C & Valued {
  const { record } = candidate;
  const pAccepted = posteriorMean(record.accepted, record.posts, priors.acceptance);
  const pReturned = posteriorMean(record.returned, record.settledSales, priors.returns);
  return { ...candidate, pAccepted, pReturned, expectedValue: candidate.price * pAccepted * (1 - pReturned) };
}

/**
 * The candidates best first: by expected value, then by price (the surer of two equal values is the one that
 * pays more per sale), then by buyer id so the order never depends on the input's.
 */
export function rankByExpectedValue<C extends Candidate>(
  candidates: readonly C[],
  priors?: { acceptance: BetaPrior; returns: BetaPrior },
): (C & Valued)[] {
  return candidates
    .map((candidate) => valueOf(candidate, priors))
    .sort((a, b) => b.expectedValue - a.expectedValue || b.price - a.price || byBuyer(a, b));
}

/**
 * The candidates by price alone, highest first (then by expected value, then buyer id): the ranking of a plain
 * highest-bid auction, kept to measure the expected-value ranking against (`rankBy: 'price'`). The values are
 * still computed, and recorded with each attempt.
 */
export function rankByPrice<C extends Candidate>(
  candidates: readonly C[],
  priors?: { acceptance: BetaPrior; returns: BetaPrior },
): (C & Valued)[] {
  return candidates
    .map((candidate) => valueOf(candidate, priors))
    .sort((a, b) => b.price - a.price || b.expectedValue - a.expectedValue || byBuyer(a, b));
}

function byBuyer(a: Candidate, b: Candidate): number {
  return a.buyer < b.buyer ? -1 : a.buyer > b.buyer ? 1 : 0;
}

/** One post and how it ended, as the window is counted from. */
export interface PostOutcome {
  buyer: string;
  /** When it was posted, ms since the epoch. */
  at: number;
  accepted: boolean;
  /** For an accepted post: returned, kept (its return window closed), or not known yet (undefined). */
  returned?: boolean;
}

/**
 * Each buyer's record over the rolling window (`windowMs` up to `now`): posts and acceptances, and the sales
 * whose return is settled. A sale still inside its return window counts as a post and an acceptance but not yet
 * in the return rate, which would otherwise look better than it is.
 */
export function recordsInWindow(
  outcomes: Iterable<PostOutcome>,
  now: number,
  windowMs: number,
): Map<string, BuyerRecord> {
  const records = new Map<string, BuyerRecord>();
  for (const outcome of outcomes) {
    if (outcome.at > now || outcome.at <= now - windowMs) continue;
    const record = records.get(outcome.buyer) ?? { posts: 0, accepted: 0, settledSales: 0, returned: 0 };
    record.posts += 1;
    if (outcome.accepted) {
      record.accepted += 1;
      if (outcome.returned !== undefined) {
        record.settledSales += 1;
        if (outcome.returned) record.returned += 1;
      }
    }
    records.set(outcome.buyer, record);
  }
  return records;
}
