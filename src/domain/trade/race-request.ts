/**
 * A trade's racing fields: `routes` ("all" or route names) and `mev_protect` (only routes that protect from
 * sandwiching). Absent both: no race (the trade goes out as today). Each route is paid the trade's tip (the
 * request's `tip`, or the service's relay tip): what the key's `max_tip_lamports` judged, so the policy applies
 * to every route's tip; a route whose minimum is above it is refused by name.
 */
import type { RaceRoute } from "../../chain/landing/race.js";
import { badRequest } from "../../core/errors.js";

/** Error texts of the racing fields. */
export const RACE_RULES = {
  routesType: 'routes must be "all" or a list of route names',
  mevProtectType: "mev_protect must be a boolean",
  noRoutes: "no routes are configured for racing (ROUTES)",
  unknownRoute: (name: string): string => `unknown route "${name}"`,
  noneProtecting: "mev_protect: none of the chosen routes protects from sandwiching",
  tipBelowMinimum: "the trade's tip is below a chosen route's minimum tip",
} as const;

/** The configured routes and which of them are demoted now. */
export interface RaceConfig {
  routes: readonly RaceRoute[];
  demoted: (route: string) => boolean;
}

/** The routes to race (in configuration order), or null when the body asks for no race. */
export function selectRaceRoutes(
  body: { readonly routes?: unknown; readonly mev_protect?: unknown },
  config: RaceConfig | undefined,
  tipLamports: bigint,
): RaceRoute[] | null {
  const asked = body.routes;
  const protect = body.mev_protect;
  if (asked === undefined && protect === undefined) return null;
  if (protect !== undefined && typeof protect !== "boolean") throw badRequest(RACE_RULES.mevProtectType);
  if (asked !== undefined && asked !== "all") {
    if (!Array.isArray(asked) || asked.length === 0 || !asked.every((n) => typeof n === "string" && n !== ""))
      throw badRequest(RACE_RULES.routesType);
  }
  if (config === undefined || config.routes.length === 0) throw badRequest(RACE_RULES.noRoutes);
  const configured = config.routes.map((r) => r.name);
  let chosen: RaceRoute[];
  if (Array.isArray(asked)) {
    const names = [...new Set(asked as string[])];
    const unknown = names.find((n) => !configured.includes(n));
    if (unknown !== undefined)
      throw badRequest(RACE_RULES.unknownRoute(unknown), { route: unknown, configured });
    chosen = config.routes.filter((r) => names.includes(r.name));
  } else {
    // "all" (or only mev_protect): every configured route but the demoted ones (when any other is left).
    const live = config.routes.filter((r) => !config.demoted(r.name));
    chosen = live.length > 0 ? live : [...config.routes];
  }
  if (protect === true) {
    const protecting = chosen.filter((r) => r.mevProtect);
    if (protecting.length === 0)
      throw badRequest(RACE_RULES.noneProtecting, {
        protecting: config.routes.filter((r) => r.mevProtect).map((r) => r.name),
      });
    chosen = protecting;
  }
  const under = chosen.find((r) => r.tipAccounts.length > 0 && r.minTipLamports > tipLamports);
  if (under !== undefined)
    throw badRequest(RACE_RULES.tipBelowMinimum, {
      route: under.name,
      min_tip_lamports: under.minTipLamports.toString(),
      tip_lamports: tipLamports.toString(),
    });
  return chosen;
}
