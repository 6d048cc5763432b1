import type { BuyerHealth } from '@funnel/contracts/buyer-admin';
import { Button } from '@/components/ui/button';
import { breakerText } from '../utils/breaker-text';
import { formatCount, formatRate } from '../utils/number-format';
import { ReportTable, type ReportColumn } from './report-table';

const capOf = (used: number, cap: number | null) => (cap === null ? formatCount(used) : `${used} / ${cap}`);

/** Paused by an operator, held for its key (ADR 0024), both, or live. */
function stateOf(row: BuyerHealth): string {
  const held = [row.paused ? 'Paused' : undefined, row.needsKey ? 'Needs its key' : undefined].filter(
    Boolean,
  );
  return held.join(', ') || 'Live';
}

/**
 * Each buyer over the last 15 minutes (ADR 0022): whether it is paused or needs its key, its circuit breaker and the leads that
 * passed it over since it opened, its attempts, accept rate, p95 latency,
 * timeouts and errors, its cap use in the current hour and day, and the button that pauses or resumes it.
 */
export function BuyerHealthTable({
  rows,
  busy,
  onPause,
}: {
  rows: readonly BuyerHealth[];
  busy: string | undefined;
  onPause: (buyerId: string, pause: boolean) => void;
}) {
  const columns: ReportColumn<BuyerHealth>[] = [
    { label: 'Buyer', cell: (row) => row.buyer, text: true },
    { label: 'State', cell: stateOf, text: true },
    { label: 'Breaker', cell: (row) => breakerText(row.breaker), text: true },
    { label: 'Skips', cell: (row) => formatCount(row.breaker.skips) },
    { label: 'Attempts', cell: (row) => formatCount(row.attempts) },
    { label: 'Accept rate', cell: (row) => (row.acceptRate === null ? '—' : formatRate(row.acceptRate)) },
    { label: 'p95 latency', cell: (row) => (row.p95LatencyMs === null ? '—' : `${row.p95LatencyMs} ms`) },
    { label: 'Timeouts', cell: (row) => formatCount(row.timeouts) },
    { label: 'Errors', cell: (row) => formatCount(row.errors) },
    { label: 'Cap this hour', cell: (row) => capOf(row.capUse.hour, row.capUse.perHour) },
    { label: 'Cap today', cell: (row) => capOf(row.capUse.day, row.capUse.perDay) },
    {
      label: 'Action',
      text: true,
      cell: (row) => (
        <Button
          variant="secondary"
          busy={busy === row.buyer}
          busyLabel={row.paused ? 'Resuming…' : 'Pausing…'}
          onClick={() => onPause(row.buyer, !row.paused)}
          aria-label={row.paused ? `Resume ${row.buyer}` : `Pause ${row.buyer}`}
        >
          {row.paused ? 'Resume' : 'Pause'}
        </Button>
      ),
    },
  ];
  return (
    <ReportTable
      id="buyer-health"
      caption="Buyers, last 15 minutes"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.buyer}
      empty="No buyer is configured."
    />
  );
}
