import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The base of a process's Prometheus metrics: one registry, and each metric declared by what tells it apart
 * (its name, help text, label names and buckets) and registered there. Metrics are registered in declaration
 * order, which is the order `/metrics` lists them in.
 */
export abstract class PromMetrics {
  readonly registry = new Registry();

  /** `funnel_build_info`, always 1: which build and Node run here, for a dashboard or an alert on mixed versions. */
  protected buildInfo(version: string): void {
    this.gauge(
      'funnel_build_info',
      'Always 1: the build (APP_VERSION) and the Node version of this process',
      {
        labelNames: ['version', 'node'],
      },
    ).set({ version, node: process.versions.node }, 1);
  }

  protected counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) {
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  protected histogram<L extends string = never>(
    name: string,
    help: string,
    buckets: number[],
    labelNames: readonly L[] = [],
  ) {
    return new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** A gauge; with `collect`, read afresh on every scrape. */
  protected gauge<L extends string = never>(
    name: string,
    help: string,
    options: { labelNames?: readonly L[]; collect?: (this: Gauge<L>) => void | Promise<void> } = {},
  ) {
    return new Gauge<L>({
      name,
      help,
      labelNames: options.labelNames ?? [],
      collect: options.collect,
      registers: [this.registry],
    });
  }
}
