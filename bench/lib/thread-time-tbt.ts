/**
 * Total Blocking Time worked out from the trace's thread time instead of wall time. Lighthouse's simulation
 * multiplies each observed main-thread task by 4 (its mobile CPU slowdown); on a shared machine a task's wall
 * time also holds whatever time the thread waited for a CPU, so a busy neighbour inflates TBT several times over
 * (the static one-form page, which runs no script, was measured at up to 1.6 s). A task's thread time (`tdur`) is
 * what it ran. Same rule otherwise: the page's top-level tasks starting after its first contentful paint, each
 * blocking for 4 × its thread time − 50 ms. An estimate to compare builds by, not Lighthouse's figure.
 */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
}

const CPU_SLOWDOWN = 4;
const BLOCKING_FROM_MS = 50;

export function threadTimeTbt(traceEvents: readonly TraceEvent[]): number {
  const navigation = traceEvents.find(
    (e) =>
      e.name === 'navigationStart' &&
      e.args?.data?.isLoadingMainFrame === true &&
      e.args.data.documentLoaderURL?.startsWith('http') === true,
  );
  if (!navigation) return NaN;
  const fcp = traceEvents.find((e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid);
  if (!fcp) return NaN;
  let blocking = 0;
  for (const e of traceEvents) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.pid !== navigation.pid || e.tid !== navigation.tid)
      continue;
    if (e.ts < fcp.ts) continue;
    const ms = (e.tdur ?? e.dur ?? 0) / 1000;
    blocking += Math.max(0, CPU_SLOWDOWN * ms - BLOCKING_FROM_MS);
  }
  return blocking;
}
