import { useEffect, useRef, useState } from 'react';
import { PROGRESS_STEPS, isLastStep, stepEndsAt, type ProgressStepId } from '../utils/progress-sequence';

export interface ProgressState {
  step: ProgressStepId;
  index: number;
  /** The last step is over and the answer is in: time to show it. */
  finished: boolean;
}

/**
 * Runs the progress sequence of the waiting screen. `answered` turns true when the lenders' final answer is in;
 * without it the sequence stops on its last step and waits there.
 */
export function useProgressSequence(answered: boolean): ProgressState {
  const [shown, setShown] = useState({ index: 0, finished: false });
  const timing = useRef<{ startedAt: number; answered?: { at: number; index: number } }>(undefined);

  useEffect(() => {
    const now = performance.now();
    timing.current ??= { startedAt: now };
    if (answered) timing.current.answered ??= { at: now, index: shown.index };
    const clock = timing.current;
    if (shown.finished) return;
    const last = isLastStep(shown.index);
    if (last && !answered) return;

    const timer = setTimeout(
      () => {
        clock.startedAt = performance.now();
        setShown(last ? { index: shown.index, finished: true } : { index: shown.index + 1, finished: false });
      },
      Math.max(0, stepEndsAt({ index: shown.index, ...clock }) - now),
    );
    return () => clearTimeout(timer);
  }, [shown, answered]);

  const step = PROGRESS_STEPS[shown.index] ?? PROGRESS_STEPS[0];
  return { step: step.id, index: shown.index, finished: shown.finished };
}
