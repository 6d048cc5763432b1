/**
 * The operator's view names only series the apps export: every metric in the Grafana dashboards and in the
 * Prometheus alert rules is one the BFF or the worker registers, and every `funnel_*` series they export is on
 * the dashboard (docs/operating.md, "Dashboards"). A renamed metric would otherwise leave a blank panel or an alert that
 * never fires. It lives beside the infra files it checks, not in either app: apps never import each other.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { BffMetrics } from '../../apps/bff/src/plugins/metrics.js';
import { WorkerMetrics } from '../../apps/worker/src/metrics.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dashboardsDir = path.join(root, 'infra/grafana/dashboards');
const alertRules = readFileSync(path.join(root, 'infra/prometheus/alerts.yml'), 'utf8');

interface Panel {
  panels?: Panel[];
  targets?: Array<{ expr?: string }>;
}

function expressions(panels: readonly Panel[]): string[] {
  return panels.flatMap((panel) => [
    ...(panel.targets ?? []).map((target) => target.expr ?? ''),
    ...expressions(panel.panels ?? []),
  ]);
}

/** The series an expression reads, histogram suffixes folded onto their metric. */
function seriesIn(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/\b((?:funnel|nodejs|process)_[a-z0-9_]+)/g)].map((m) =>
      m[1]!.replace(/_(bucket|sum|count)$/, ''),
    ),
  );
}

async function exported(): Promise<Set<string>> {
  const bff = new BffMetrics(() => 0, 'test');
  const worker = new WorkerMetrics([], 'test');
  worker.watchSystemOfRecord(
    async () => 0,
    async () => false,
  );
  // With a buyers file: each buyer's calls in flight.
  worker.watchBulkheads(['example-buyer'], () => 0);
  const names = [...bff.registry.getMetricsAsArray(), ...worker.registry.getMetricsAsArray()].map(
    (metric) => metric.name,
  );
  // A gauge read at scrape time: PostgreSQL not answering reads 0.
  expect(await worker.registry.getSingleMetricAsString('funnel_postgres_up')).toContain(
    'funnel_postgres_up 0',
  );
  return new Set(names);
}

it('every metric on the dashboards and in the alert rules is one the apps export, and every funnel series is shown', async () => {
  const names = await exported();
  const dashboards = readdirSync(dashboardsDir).filter((file) => file.endsWith('.json'));
  expect(dashboards.length).toBeGreaterThan(0);
  const onDashboards = new Set<string>();
  for (const file of dashboards) {
    const dashboard = JSON.parse(readFileSync(path.join(dashboardsDir, file), 'utf8')) as Panel;
    for (const expr of expressions(dashboard.panels ?? [])) {
      for (const series of seriesIn(expr)) onDashboards.add(series);
    }
  }
  const inAlerts = seriesIn(alertRules);

  expect([...onDashboards].filter((series) => !names.has(series))).toEqual([]);
  expect([...inAlerts].filter((series) => !names.has(series))).toEqual([]);
  expect(inAlerts.size).toBeGreaterThanOrEqual(7);
  const funnelSeries = [...names].filter((name) => name.startsWith('funnel_'));
  expect(funnelSeries.filter((series) => !onDashboards.has(series))).toEqual([]);
});
