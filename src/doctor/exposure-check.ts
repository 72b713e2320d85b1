/**
 * Issue 29 finding 15: the defaults that suit the sandbox and no real deployment — `SETUP_MODE=open`, a
 * public `/metrics` and no `ALLOWED_HOSTS` — named by `npm run doctor` (one check each) and by the start
 * banner (a block of warnings) on every cluster but the sandbox. One list, so the two always agree.
 */
import type { Cluster } from "../config/config.js";
import type { HardeningSettings } from "../config/hardening.js";
import { fail, ok, warn, type CheckResult } from "./check.js";

/** The settings the exposure checks read. */
export type ExposureSettings = Pick<HardeningSettings, "setupMode" | "metricsToken" | "allowedHosts">;

/** One default left open: the check's name, how bad it is on this cluster, and what to do about it. */
export interface Exposure {
  name: "setup-mode" | "metrics-access" | "allowed-hosts";
  /** fail: `npm run doctor` exits 1 (and DOCTOR_AT_START=refuse refuses the start); warn: it is reported. */
  severity: "warn" | "fail";
  detail: string;
}

/**
 * The open defaults of `settings` on `cluster`, in a fixed order; none on the sandbox (CLUSTER=localnet),
 * where they are the point. On mainnet an open setup fails: anyone who reaches the port can create an
 * account whose keys this machine holds, and closing it is the guide's first step.
 */
export function exposures(cluster: Cluster, settings: ExposureSettings): Exposure[] {
  if (cluster === "localnet") return [];
  const out: Exposure[] = [];
  if (settings.setupMode === "open")
    out.push({
      name: "setup-mode",
      severity: cluster === "mainnet" ? "fail" : "warn",
      detail:
        "SETUP_MODE=open: anyone who reaches this service can create an account (POST /v1/laser/setup); " +
        "set SETUP_MODE=token with SETUP_TOKEN to create yours, then SETUP_MODE=closed",
    });
  if (settings.metricsToken === undefined)
    out.push({
      name: "metrics-access",
      severity: "warn",
      detail: "METRICS_TOKEN is unset: GET /metrics answers anyone; set METRICS_TOKEN (16+ characters)",
    });
  if (settings.allowedHosts.length === 0)
    out.push({
      name: "allowed-hosts",
      severity: "warn",
      detail:
        "ALLOWED_HOSTS is empty: any Host header is answered (DNS rebinding); list the host names clients use",
    });
  return out;
}

/** The doctor's three exposure checks: ok, or the open default at its severity. None on the sandbox. */
export function checkExposure(cluster: Cluster, settings: ExposureSettings): CheckResult[] {
  if (cluster === "localnet") return [];
  const open = new Map(exposures(cluster, settings).map((e) => [e.name, e]));
  const closed: Record<Exposure["name"], string> = {
    "setup-mode": `SETUP_MODE=${settings.setupMode}`,
    "metrics-access": "GET /metrics requires METRICS_TOKEN",
    "allowed-hosts": `ALLOWED_HOSTS=${settings.allowedHosts.join(",")}`,
  };
  return (Object.keys(closed) as Exposure["name"][]).map((name) => {
    const e = open.get(name);
    if (e === undefined) return ok(name, closed[name]);
    return e.severity === "fail" ? fail(name, e.detail) : warn(name, e.detail);
  });
}
