/**
 * The waiting screen's sequence. docs/product-rules.md §matching-screen: the three intro steps advance
 * one after another, then the spec's sequence (§4, §9) runs: 'Searching Lenders' for 193 s, then 'Connecting
 * Lenders' for 0.5 s. Every step moves on 0.5 s after its duration. Once the lenders' answer is in, the steps
 * left run to the end within a second, so the visitor moves on quickly instead of waiting out the search.
 */
export const PROGRESS_STEPS = [
  { id: 'formation', durationMs: 1_500 },
  { id: 'connection-setup', durationMs: 1_500 },
  { id: 'start', durationMs: 1_500 },
  { id: 'searching', durationMs: 193_000 },
  { id: 'connecting', durationMs: 500 },
] as const;

export type ProgressStepId = (typeof PROGRESS_STEPS)[number]['id'];

/** The intro steps, in order: the first three of {@link PROGRESS_STEPS}. */
export const INTRO_STEP_COUNT = 3;

/** How an intro step reads (docs/product-rules.md §matching-screen: waiting, in progress, done; never 'ready' for a step not done). */
export type IntroStatus = 'waiting' | 'active' | 'done';

/** The intro steps' statuses while step `index` of {@link PROGRESS_STEPS} shows. */
export function introStatuses(index: number): IntroStatus[] {
  return Array.from({ length: INTRO_STEP_COUNT }, (_, intro) =>
    intro < index ? 'done' : intro === index ? 'active' : 'waiting',
  );
}

/** The pause after each step's duration before the next one shows. */
export const STEP_GAP_MS = 500;
/**
 * How long the rest of the sequence takes once the answer has arrived, whatever step shows: the borrower sees
 * the outcome's screen within 1.5 s of the decision (issue 25), with room left for the page to render.
 */
export const FINISH_AFTER_ANSWER_MS = 1_000;

export interface ProgressTiming {
  /** The step showing, an index into `PROGRESS_STEPS`. */
  index: number;
  /** When it started showing (ms, any monotonic clock). */
  startedAt: number;
  /** When the answer arrived, and which step was showing then, if it has. */
  answered?: { at: number; index: number };
}

/**
 * When the step showing ends and the next one (or, after the last, the answer) may show, on the clock of
 * `startedAt`. Once the answer is in, the steps left (the one showing then and every later one) share
 * {@link FINISH_AFTER_ANSWER_MS} equally, so the sequence still runs to its end but the last step ends that long
 * after the answer; no step ends later than it would have without the answer.
 */
export function stepEndsAt({ index, startedAt, answered }: ProgressTiming): number {
  const step = PROGRESS_STEPS[index];
  if (!step) throw new RangeError(`no progress step ${index}`);
  const full = startedAt + step.durationMs + STEP_GAP_MS;
  if (answered === undefined) return full;
  const left = PROGRESS_STEPS.length - answered.index;
  const share = FINISH_AFTER_ANSWER_MS / left;
  return Math.min(full, answered.at + share * (index - answered.index + 1));
}

export function isLastStep(index: number): boolean {
  return index >= PROGRESS_STEPS.length - 1;
}
