import { useEffect, useState } from 'react';

/** A percentage that counts from 0 to 100 over `durationMs`, in whole steps, for the verification loader. */
export function useCountToHundred(durationMs: number): number {
  const [percent, setPercent] = useState(0);
  useEffect(() => {
    let frame = 0;
    const start = performance.now();
    const tick = (now: number) => {
      // A frame's timestamp can precede `start` (it is when the frame began): never below 0.
      const next = Math.max(0, Math.min(100, Math.floor(((now - start) / durationMs) * 100)));
      setPercent(next);
      if (next < 100) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [durationMs]);
  return percent;
}
