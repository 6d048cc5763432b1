import * as z from 'zod';

/**
 * What screening can find wrong with a lead's contact before any buyer sees it (issue 41, ADR 0029). Codes only:
 * a verdict never carries the phone, the email or what a provider said about the person beyond its own codes.
 */
export const SCREENING_REASONS = [
  /** A known TCPA litigator or serial plaintiff, by the litigator list. */
  'phone_litigator',
  /** On the federal Do Not Call registry. */
  'phone_do_not_call',
  /** The registry copy asked is more than 31 days old: the FTC's safe harbour no longer covers it. */
  'do_not_call_copy_stale',
  /** A throwaway address (the disposable-domain list). */
  'email_disposable',
  /** The email's domain does not exist. */
  'email_no_domain',
  /** The email's domain exists but takes no mail. */
  'email_no_mail',
  /** More leads than a person makes came from the lead's address within the hour (a farm, a bot, a ring). */
  'ip_velocity',
] as const;
export const ScreeningReasonSchema = z.enum(SCREENING_REASONS);
export type ScreeningReason = z.infer<typeof ScreeningReasonSchema>;

/** The checks screening runs; one that did not answer in time is named in `unchecked`. */
export const SCREENING_CHECKS = ['litigator', 'do_not_call', 'email', 'velocity'] as const;
export const ScreeningCheckSchema = z.enum(SCREENING_CHECKS);
export type ScreeningCheck = z.infer<typeof ScreeningCheckSchema>;

export const SCREENING_VERDICTS = ['pass', 'flag', 'block'] as const;
export type ScreeningVerdictKind = (typeof SCREENING_VERDICTS)[number];

/**
 * One lead's verdict: `block` ends the lead before any buyer sees it; `flag` lets it go on, marked; `pass` is a
 * lead with nothing found. `score` is 100 for nothing found, less for each finding and each check not done.
 */
export const ScreeningVerdictSchema = z.object({
  verdict: z.enum(SCREENING_VERDICTS),
  score: z.number().int().min(0).max(100),
  reasons: z.array(ScreeningReasonSchema).max(SCREENING_REASONS.length),
  unchecked: z.array(ScreeningCheckSchema).max(SCREENING_CHECKS.length),
  /** What the screening took, ms: the time it adds before the first buyer. */
  ms: z.number().int().nonnegative(),
});
export type ScreeningVerdict = z.infer<typeof ScreeningVerdictSchema>;

/**
 * A score in one letter, what a buyer is told of screening (in the ping, and what it may price by): A 90–100, B
 * 70–89, C 50–69, D below. Never the findings themselves: those name what we know of the person.
 */
export const SCREENING_BANDS = ['A', 'B', 'C', 'D'] as const;
export const ScreeningBandSchema = z.enum(SCREENING_BANDS);
export type ScreeningBand = z.infer<typeof ScreeningBandSchema>;

/** The lowest score of each band, best band first: the one table `bandOf`, the reports and the console read. */
export const SCREENING_BAND_FLOORS: Readonly<Record<ScreeningBand, number>> = { A: 90, B: 70, C: 50, D: 0 };

export function bandOf(score: number): ScreeningBand {
  return SCREENING_BANDS.find((band) => score >= SCREENING_BAND_FLOORS[band]) ?? 'D';
}

/** The outcome reason of a lead screening blocked. */
export const SCREENED_OUT_REASON = 'screened_out';
