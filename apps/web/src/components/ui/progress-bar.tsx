import { useEffect, useState } from 'react';
import styles from './progress-bar.module.css';

/**
 * How far through the application the visitor is. The bar grows from where it stood to `value` over one second
 * (spec §4). It starts where the visitor is, not at zero: a reopened tab or a reload shows the bar standing still
 * (docs/product-rules.md §wizard-order-and-progress), and only moving from step to step animates.
 */
export function ProgressBar({ value }: { value: number }) {
  const [shown, setShown] = useState(value);
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
