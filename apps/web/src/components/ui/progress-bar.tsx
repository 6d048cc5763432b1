import { useEffect, useState } from 'react';
import styles from './progress-bar.module.css';

/**
 * How far through the application the visitor is. The bar grows from where it stood to `value` over one second
 * (spec §4); it starts from zero the first time so the first step animates too.
 */
export function ProgressBar({ value }: { value: number }) {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(value));
    return () => cancelAnimationFrame(frame);
  }, [value]);
  const percent = Math.round(value);
  return (
    <div className={styles.wrapper}>
      <div
        className={styles.track}
        role="progressbar"
        aria-label="Application progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% complete`}
      >
        <div className={styles.fill} style={{ transform: `scaleX(${shown / 100})` }} />
      </div>
      <p className={styles.label} aria-hidden="true">
        {percent}% complete
      </p>
    </div>
  );
}
