import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { FUNNEL_POSITION_LABELS, type FunnelReport } from '@funnel/contracts/reports';
import { formatCount } from '../utils/number-format';
import styles from './operator.module.css';

const HEIGHT = 300;
/** Below this width the 26 positions cannot stand side by side: the chart turns horizontal (issue 25). */
const HORIZONTAL_BELOW_PX = 640;
const REACHED_COLOUR = '#1747b8';
const COMPLETED_COLOUR = '#1f8a5b';
/** Whole leads only on the y axis. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];

function options(steps: FunnelReport['steps'], width: number): uPlot.Options {
  const names = steps.map((row) => FUNNEL_POSITION_LABELS[row.step]);
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
        // Every position gets a tick: the chart is drawn only where 26 labels fit side by side.
        incrs: [1],
        space: 10,
        rotate: -45,
        // Room for the longest screen name ("Best time to call") at that angle.
        size: 110,
        font: '12px system-ui, sans-serif',
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
 * those completing it. On a narrow screen it turns horizontal, one row per position with its name beside its
 * bars, so no label overlaps another. Its own lazy chunk, loaded only by the operator page. The numbers are in
 * the table beside it, which is what assistive technology reads.
 */
export default function FunnelChart({ steps }: { steps: FunnelReport['steps'] }) {
  const frame = useRef<HTMLElement>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const resize = new ResizeObserver(() => setWidth(element.clientWidth));
    resize.observe(element);
    return () => resize.disconnect();
  }, []);

  const horizontal = width !== undefined && width < HORIZONTAL_BELOW_PX;
  return (
    <figure className={styles.chart} ref={frame}>
      {width === undefined ? null : horizontal ? (
        <HorizontalChart steps={steps} />
      ) : (
        <CanvasChart steps={steps} width={width} />
      )}
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

const CHART_LABEL =
  'Chart of the leads reaching each funnel step (bars) and completing it (line), in wizard order; the table below has the numbers.';

function CanvasChart({ steps, width }: { steps: FunnelReport['steps']; width: number }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | undefined>(undefined);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      steps.map((_row, i) => i),
      steps.map((row) => row.reached),
      steps.map((row) => row.completed),
    ];
    chart.current = new uPlot(options(steps, element.clientWidth), data, element);
    return () => {
      chart.current?.destroy();
      chart.current = undefined;
    };
  }, [steps]);

  useEffect(() => {
    chart.current?.setSize({ width, height: HEIGHT });
  }, [width]);

  return (
    <div
      ref={container}
      className={styles.chartCanvas}
      role="img"
      aria-label={CHART_LABEL}
      data-chart="funnel"
    />
  );
}

/** One row per position: its name, a bar for the leads reaching it and a mark where those completing it end. */
function HorizontalChart({ steps }: { steps: FunnelReport['steps'] }) {
  const most = Math.max(1, ...steps.map((row) => row.reached));
  const share = (count: number) => `${(count / most) * 100}%`;
  return (
    <div className={styles.barChart} role="img" aria-label={CHART_LABEL} data-chart="funnel">
      {steps.map((row) => (
        <div key={row.step} className={styles.barRow}>
          <span className={styles.barName}>{FUNNEL_POSITION_LABELS[row.step]}</span>
          <span className={styles.barTrack} aria-hidden="true">
            <span
              className={styles.barReached}
              style={{ width: share(row.reached), background: REACHED_COLOUR }}
            />
            <span
              className={styles.barCompleted}
              style={{ width: share(row.completed), borderColor: COMPLETED_COLOUR }}
            />
          </span>
        </div>
      ))}
    </div>
  );
}
