/**
 * The one-line start banner (issue 22): where the service listens and where its API documentation is; and
 * under it, off the sandbox, the defaults left open (issue 29).
 */
import type { Cluster } from "../config/config.js";
import { exposures, type ExposureSettings } from "../doctor/exposure-check.js";

/** The URL a browser can open for a bind address: a wildcard bind is reachable on loopback. */
export function serviceUrl(host: string, port: number): string {
  const shown =
    host === "0.0.0.0" || host === "::" || host === ""
      ? "127.0.0.1"
      : host.includes(":")
        ? `[${host}]`
        : host;
  return `http://${shown}:${port}`;
}

/**
 * `lasertrade listening on http://127.0.0.1:8080 (API docs: http://127.0.0.1:8080/docs, console:
 * http://127.0.0.1:8080/console)`.
 */
export function startBanner(host: string, port: number): string {
  const url = serviceUrl(host, port);
  return `lasertrade listening on ${url} (API docs: ${url}/docs, console: ${url}/console)`;
}

/**
 * Issue 29 finding 15: the block of warnings printed under the banner when the service runs off the sandbox
 * with a default left open (SETUP_MODE=open, public /metrics, no ALLOWED_HOSTS; doctor/exposure-check.ts).
 * Empty when there is nothing to say; every line starts with `!!` so it stands out in a terminal or a log.
 */
export function exposureBanner(cluster: Cluster, settings: ExposureSettings): string[] {
  const open = exposures(cluster, settings);
  if (open.length === 0) return [];
  return [
    `!! WARNING: CLUSTER=${cluster} with ${open.length} open default${open.length === 1 ? "" : "s"}:`,
    ...open.map((e) => `!!   ${e.severity === "fail" ? "FAIL" : "WARN"} ${e.name}: ${e.detail}`),
    '!! Close them first: docs/operations.md, "Going to mainnet", step 1 (npm run doctor checks them).',
  ];
}
