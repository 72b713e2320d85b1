/** Metric constructors bound to one registry (every metric of the app is on its own, never prom-client's global). */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/**
 * A counter, a histogram and a gauge maker, each registering on `registry`. A gauge given `read` is set from
 * it whenever the registry is scraped (a figure kept elsewhere); without it, the caller sets the gauge.
 */
export function metricsOn(registry: Registry) {
  const registers = [registry];
  return {
    counter: <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers }),
    histogram: <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers }),
    gauge: (name: string, help: string, read?: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        ...(read !== undefined
          ? {
              collect(this: Gauge) {
                this.set(read());
              },
            }
          : {}),
      }),
  };
}
