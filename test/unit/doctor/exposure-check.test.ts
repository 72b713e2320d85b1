/**
 * Issue 29 finding 15: off the sandbox, SETUP_MODE=open, a public /metrics and no ALLOWED_HOSTS are named by
 * `npm run doctor` (a failing or warning check each) and by a block of warnings under the start banner.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doctorCommand } from "../../../src/cli/doctor-command.js";
import { checkExposure, exposures, type ExposureSettings } from "../../../src/doctor/exposure-check.js";
import { exposureBanner } from "../../../src/runtime/banner.js";
import { startRefusingPubSub, type RefusingPubSub } from "../../helpers/refusing-pubsub.js";

const defaults: ExposureSettings = { setupMode: "open", metricsToken: undefined, allowedHosts: [] };
const closed: ExposureSettings = {
  setupMode: "closed",
  metricsToken: "a-metrics-token-of-16+",
  allowedHosts: ["api.example.com"],
};

describe("exposures", () => {
  it("names nothing on the sandbox, where the defaults are the point", () => {
    expect(exposures("localnet", defaults)).toEqual([]);
    expect(checkExposure("localnet", defaults)).toEqual([]);
    expect(exposureBanner("localnet", defaults)).toEqual([]);
  });

  it("on mainnet an open setup fails, a public /metrics and no ALLOWED_HOSTS warn", () => {
    const results = checkExposure("mainnet", defaults);
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ["setup-mode", "fail"],
      ["metrics-access", "warn"],
      ["allowed-hosts", "warn"],
    ]);
    expect(results[0]!.detail).toContain("SETUP_MODE=open");
    expect(results[1]!.detail).toContain("METRICS_TOKEN");
    expect(results[2]!.detail).toContain("ALLOWED_HOSTS");
  });

  it("on devnet and custom clusters each is a warning", () => {
    for (const cluster of ["devnet", "custom"] as const)
      expect(checkExposure(cluster, defaults).map((r) => r.status)).toEqual(["warn", "warn", "warn"]);
  });

  it("each closed setting is ok on its own; a token setup is closed enough", () => {
    expect(checkExposure("mainnet", closed).map((r) => r.status)).toEqual(["ok", "ok", "ok"]);
    expect(checkExposure("mainnet", { ...closed, setupMode: "token" })[0]).toEqual({
      name: "setup-mode",
      status: "ok",
      detail: "SETUP_MODE=token",
    });
    expect(checkExposure("mainnet", { ...defaults, setupMode: "closed" }).map((r) => r.status)).toEqual([
      "ok",
      "warn",
      "warn",
    ]);
    expect(exposureBanner("mainnet", closed)).toEqual([]);
  });
});

describe("the start banner's warnings", () => {
  it("are a block of !! lines naming each open default and the guide's first step", () => {
    const lines = exposureBanner("mainnet", defaults);
    expect(lines.every((l) => l.startsWith("!! "))).toBe(true);
    expect(lines[0]).toBe("!! WARNING: CLUSTER=mainnet with 3 open defaults:");
    expect(lines[1]).toMatch(/^!! {3}FAIL setup-mode: SETUP_MODE=open: /);
    expect(lines[2]).toMatch(/^!! {3}WARN metrics-access: METRICS_TOKEN is unset/);
    expect(lines[3]).toMatch(/^!! {3}WARN allowed-hosts: ALLOWED_HOSTS is empty/);
    expect(lines.at(-1)).toContain('docs/operations.md, "Going to mainnet", step 1');
    expect(exposureBanner("devnet", { ...closed, metricsToken: undefined })).toEqual([
      "!! WARNING: CLUSTER=devnet with 1 open default:",
      "!!   WARN metrics-access: METRICS_TOKEN is unset: GET /metrics answers anyone; set METRICS_TOKEN (16+ characters)",
      '!! Close them first: docs/operations.md, "Going to mainnet", step 1 (npm run doctor checks them).',
    ]);
  });
});

describe("npm run doctor on mainnet with the defaults", () => {
  // Upstreams that refuse at once: the exposure checks need none, and lead the output. The PubSub endpoint
  // refuses every subscription (a closed port would leave the check waiting its 2 s for a connection).
  const env: Record<string, string> = {
    CLUSTER: "mainnet",
    MASTER_KEY: "11".repeat(32),
    RPC_URL: "http://127.0.0.1:1",
    RPC_TIMEOUT_MS: "300",
    RELAY_URL: "http://127.0.0.1:1",
    RELAY_TIP_ACCOUNTS: "96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5",
    BUNDLE_RELAY_URL: "http://127.0.0.1:1",
  };
  let pubsub: RefusingPubSub;
  beforeAll(async () => {
    pubsub = await startRefusingPubSub();
    env.RPC_WS_URL = pubsub.url;
  });
  afterAll(() => pubsub.close());

  it("prints a check per open default first, FAIL for the open setup, and exits 1", async () => {
    const out: string[] = [];
    const code = await doctorCommand(env, { out: (l) => out.push(l), err: (l) => out.push(l) });
    expect(code).toBe(1);
    expect(out[0]).toMatch(/^FAIL setup-mode +SETUP_MODE=open: /);
    expect(out[1]).toMatch(/^WARN metrics-access +METRICS_TOKEN is unset/);
    expect(out[2]).toMatch(/^WARN allowed-hosts +ALLOWED_HOSTS is empty/);
  });

  it("with setup closed, a metrics token and allowed hosts those three lines are ok", async () => {
    const out: string[] = [];
    await doctorCommand(
      { ...env, SETUP_MODE: "closed", METRICS_TOKEN: "m".repeat(20), ALLOWED_HOSTS: "api.example.com" },
      { out: (l) => out.push(l), err: (l) => out.push(l) },
    );
    expect(out.slice(0, 3).map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual([
      "ok setup-mode",
      "ok metrics-access",
      "ok allowed-hosts",
    ]);
  });
});
