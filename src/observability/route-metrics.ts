/**
 * The landing routes' figures as Prometheus gauges, labelled by route and window (1h, 24h): what GET /v1/routes
 * shows, read at scrape time from the same in-process figures.
 */
import { Gauge, type Registry } from "prom-client";
import type { RouteStats, RouteWindow } from "../chain/landing/route-stats.js";

/** The routes and their figures (the trade service's racing collaborators, structurally). */
export interface RouteFigures {
  routes: readonly { name: string }[];
  stats: Pick<RouteStats, "windows" | "demotion">;
}

type Label = "route" | "window";

/** Registers the route gauges (nothing when no route is configured). */
export function registerRouteMetrics(registry: Registry, racing: RouteFigures): void {
  const registers = [registry];
  const perWindow = (name: string, help: string, read: (w: RouteWindow) => number | null) =>
    new Gauge<Label>({
      name,
      help,
      labelNames: ["route", "window"],
      registers,
      collect(this: Gauge<Label>) {
        for (const r of racing.routes) {
          const windows = racing.stats.windows(r.name);
          for (const window of ["1h", "24h"] as const) {
            const v = read(windows[window]);
            if (v !== null) this.set({ route: r.name, window }, v);
          }
        }
      },
    });
  perWindow("lasertrade_route_sent", "Variants sent on the route in the window.", (w) => w.sent);
  perWindow("lasertrade_route_landed", "Variants the route landed (won) in the window.", (w) => w.landed);
  perWindow("lasertrade_route_landing_rate", "Landed / sent in the window.", (w) => w.landing_rate);
  perWindow(
    "lasertrade_route_slots_to_land_p50",
    "Median slots from send to land.",
    (w) => w.slots_to_land_p50,
  );
  perWindow(
    "lasertrade_route_slots_to_land_p90",
    "90th percentile slots from send to land.",
    (w) => w.slots_to_land_p90,
  );
  perWindow("lasertrade_route_errors", "Sends the route refused or did not answer.", (w) => w.errors);
  perWindow("lasertrade_route_tips_paid_lamports", "Tips paid by landed variants.", (w) =>
    Number(w.tips_paid_lamports),
  );
  new Gauge<"route">({
    name: "lasertrade_route_demoted",
    help: "1 while the route is demoted (left out of races after failing repeatedly).",
    labelNames: ["route"],
    registers,
    collect(this: Gauge<"route">) {
      for (const r of racing.routes)
        this.set({ route: r.name }, racing.stats.demotion(r.name).demoted ? 1 : 0);
    },
  });
}
