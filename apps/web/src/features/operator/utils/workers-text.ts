import type { BuyerHealthList } from '@funnel/contracts/buyer-admin';

/**
 * The workers running the buyers: those alive with their version; a stopped one apart, with when it was last seen,
 * so the version it ran is not read as one a worker still runs (an edit would look ignored).
 */
export function workersText(workers: BuyerHealthList['workers']): string {
  const running = workers.filter((w) => !w.gone);
  const gone = workers.filter((w) => w.gone);
  const parts = [
    `workers: ${running.map((w) => `${w.worker} on version ${w.version}`).join(', ') || 'none running'}`,
  ];
  if (gone.length > 0) {
    const seen = gone.map(
      (w) => `${w.worker} (last seen ${new Date(w.lastSeenAt).toLocaleString()}, on version ${w.version})`,
    );
    parts.push(`gone: ${seen.join(', ')}`);
  }
  return parts.join(' · ');
}
