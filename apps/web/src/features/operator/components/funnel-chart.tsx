import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { FunnelReport } from '@funnel/contracts/reports';
import { formatCount } from '../utils/number-format';
import styles from './operator.module.css';

const HEIGHT = 300;
const REACHED_COLOUR = '#1747b8';
const COMPLETED_COLOUR = '#1f8a5b';
/** Whole leads only on the y axis. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];

function options(steps: FunnelReport['steps'], width: number): uPlot.Options {
  const names = steps.map((row) => row.step);
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: false, range: [-0.5, names.length - 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
    },
    axes: [
      {
        // Every position gets a tick where there is room; on a phone every second or third.
        incrs: [1, 2, 3, 5],
        space: 14,
        rotate: -60,
        // Room for the longest step name ("unsecureddebtamount") at that angle.
        size: 136,
        font: '11px system-ui, sans-serif',
        values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (names[i] ?? '') : '')),
      },
      {
        incrs: COUNT_STEPS,
        font: '12px system-ui, sans-serif',
        values: (_u, splits) => splits.map((v) => formatCount(v)),
      },
    ],
    series: [
      {},
      {
        label: 'Reached',
        stroke: REACHED_COLOUR,
        fill: 'rgb(23 71 184 / 30%)',
        paths: uPlot.paths.bars!({ size: [0.7, 48] }),
        points: { show: false },
      },
      {
        label: 'Completed',
        stroke: COMPLETED_COLOUR,
        width: 2,
        points: { show: true, size: 6, fill: COMPLETED_COLOUR },
      },
    ],
  };
}

/**
 * The funnel as a chart (uPlot, a ~20 kB canvas library): bars for the leads reaching each position, a line for
 * those completing it. Its own lazy chunk, loaded only by the operator page. The numbers are in the table
 * beside it, which is what assistive technology reads.
 */
export default function FunnelChart({ steps }: { steps: FunnelReport['steps'] }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      steps.map((_row, i) => i),
      steps.map((row) => row.reached),
      steps.map((row) => row.completed),
    ];
    const chart = new uPlot(options(steps, element.clientWidth), data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [steps]);

  return (
    <figure className={styles.chart}>
      <div
        ref={container}
        className={styles.chartCanvas}
        role="img"
        aria-label="Chart of the leads reaching each funnel step (bars) and completing it (line), in wizard order; the table below has the numbers."
        data-chart="funnel"
      />
      <figcaption className={styles.legend}>
        <span>
          <span className={styles.swatch} style={{ background: REACHED_COLOUR }} aria-hidden="true" /> Reached
        </span>
        <span>
          <span className={styles.swatchLine} style={{ background: COMPLETED_COLOUR }} aria-hidden="true" />{' '}
          Completed
        </span>
      </figcaption>
    </figure>
  );
}
