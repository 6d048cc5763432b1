/** A Prometheus histogram read from a text exposition: its upper bounds (without +Inf) and per-bucket counts. */
export interface Histogram {
  bounds: number[];
  /** Observations per bucket (not cumulative), one more than `bounds`: the last is above the largest bound. */
  counts: number[];
}

/** Reads the histogram `name` from a `/metrics` page, summing over label sets. */
export function parseHistogram(exposition: string, name: string): Histogram {
  const cumulative = new Map<number, number>();
  const pattern = new RegExp(`^${name}_bucket\\{(?:[^}]*,)?le="([^"]+)"[^}]*\\} (\\S+)$`, 'gm');
  for (const match of exposition.matchAll(pattern)) {
    const le = match[1] === '+Inf' ? Infinity : Number(match[1]);
    cumulative.set(le, (cumulative.get(le) ?? 0) + Number(match[2]));
  }
  if (cumulative.size === 0) throw new Error(`no ${name} buckets on the metrics page`);
  const les = [...cumulative.keys()].sort((a, b) => a - b);
  const counts = les.map((le, i) => cumulative.get(le)! - (i > 0 ? cumulative.get(les[i - 1]!)! : 0));
  return { bounds: les.filter((le) => le !== Infinity), counts };
}

/** The sum of histograms with the same bounds (one per worker). */
export function sumHistograms(histograms: readonly Histogram[]): Histogram {
  const [first] = histograms;
  if (!first) throw new Error('no histogram to sum');
  return {
    bounds: first.bounds,
    counts: first.counts.map((_, i) => histograms.reduce((sum, h) => sum + (h.counts[i] ?? 0), 0)),
  };
}

/** Puts `values` into the buckets of `bounds` (a value equal to a bound belongs to it, as Prometheus' `le`). */
export function bucketCounts(bounds: readonly number[], values: readonly number[]): number[] {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const value of values) {
    const index = bounds.findIndex((bound) => value <= bound);
    counts[index === -1 ? bounds.length : index]! += 1;
  }
  return counts;
}

/** The index of the bucket holding the q-th percentile of the observations counted in `counts`. */
export function quantileBucket(counts: readonly number[], q: number): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const rank = Math.max(1, Math.ceil((q / 100) * total));
  let seen = 0;
  for (const [index, count] of counts.entries()) {
    seen += count;
    if (seen >= rank) return index;
  }
  return counts.length - 1;
}
