/**
 * The waiting screen's sequence. decisions.md ("Settled after the first release"): the three intro steps advance
 * one after another, then the spec's sequence (§4, §9) runs: 'Searching Lenders' for 193 s, then 'Connecting
 * Lenders' for 0.5 s. Every step moves on 0.5 s after its duration. Once the lenders' answer is in, the step
 * showing is cut to 1 s, and so is every later one, so the visitor moves on quickly instead of waiting out the
 * full search.
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

/** How an intro step reads (decisions.md: waiting, in progress, done; never 'ready' for a step not done). */
export type IntroStatus = 'waiting' | 'active' | 'done';

/** The intro steps' statuses while step `index` of {@link PROGRESS_STEPS} shows. */
export function introStatuses(index: number): IntroStatus[] {
  return Array.from({ length: INTRO_STEP_COUNT }, (_, intro) =>
    intro < index ? 'done' : intro === index ? 'active' : 'waiting',
  );
}

/** The pause after each step's duration before the next one shows. */
export const STEP_GAP_MS = 500;
/** A step's length once the answer has arrived. */
export const SHORTENED_STEP_MS = 1_000;

export interface ProgressTiming {
  /** The step showing, an index into `PROGRESS_STEPS`. */
  index: number;
  /** When it started showing (ms, any monotonic clock). */
  startedAt: number;
  /** When the answer arrived, if it has. */
  answeredAt?: number;
}

/**
 * When the step showing ends and the next one (or, after the last, the answer) may show, on the clock of
 * `startedAt`. A step cut short by the answer ends 1 s after the answer (never later than it would have).
 */
export function stepEndsAt({ index, startedAt, answeredAt }: ProgressTiming): number {
  const step = PROGRESS_STEPS[index];
  if (!step) throw new RangeError(`no progress step ${index}`);
  const full = startedAt + step.durationMs + STEP_GAP_MS;
  if (answeredAt === undefined) return full;
  const shortened =
    Math.max(startedAt, answeredAt) + Math.min(step.durationMs, SHORTENED_STEP_MS) + STEP_GAP_MS;
  return Math.min(full, shortened);
}

export function isLastStep(index: number): boolean {
  return index >= PROGRESS_STEPS.length - 1;
}
