/**
 * The pre-flight checks against the localnet: all green on the sandbox (npm run doctor with no configuration),
 * and loud one-line failures naming the setting for a wrong cluster, a launch Global account whose layout
 * changed, a relay that does not answer, a missing lookup table; DOCTOR_AT_START warns or refuses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { doctorCommand } from "../../../src/cli/doctor-command.js";
import { localnetChainOptions } from "../../../src/chain/localnet-options.js";
import { DoctorRefusedError, doctorAtStart } from "../../../src/doctor/doctor-at-start.js";
import { runDoctor, type DoctorInput } from "../../../src/doctor/run-doctor.js";

let net: LocalnetHandle;

beforeAll(async () => {
  // Slots advance, so the PubSub check sees a notification at once instead of waiting its 2 s in every run (its
  // warning for a chain whose slots stand still is tested in doctor-pubsub.test.ts).
  net = await startLocalnet({ port: 0, slotMs: 50 });
});
afterAll(() => net.close());
beforeEach(() => {
  net.admin.clearFaults();
  net.admin.setLaunchGlobalLayout("original");
});

function input(
  over: Partial<DoctorInput["chain"]> = {},
  cluster: DoctorInput["cluster"] = "localnet",
): DoctorInput {
  return {
    cluster,
    chain: {
      ...localnetChainOptions(net),
      relays: [
        { name: "localnet", url: net.relayUrl },
        { name: "localnet2", url: net.relay2Url },
      ],
      rpcTimeoutMs: 1_000,
      ...over,
    },
  };
}

function byName(report: Awaited<ReturnType<typeof runDoctor>>) {
  return new Map(report.results.map((r) => [r.name, r]));
}

describe("npm run doctor", () => {
  it("passes every check on the sandbox with no configuration, one line per check", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await doctorCommand({}, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const names = out.filter((l) => /^(ok|WARN|FAIL) /.test(l)).map((l) => l.split(/\s+/)[1]);
    expect(names).toEqual([
      "rpc-cluster",
      "launch-program",
      "launchswap-program",
      "launch-global",
      "launch-fee-config",
      "swap-global-config",
      "swap-fee-config",
      "program-generation",
      "lookup-table",
      "relay",
      "bundle-relay",
      "relay-tip-accounts",
      "bundle-tip-accounts",
      "fee-policy",
      "pubsub",
    ]);
    expect(out.every((l) => !l.startsWith("FAIL") && !l.startsWith("WARN"))).toBe(true);
    expect(out.at(-1)).toBe("doctor: all checks passed");
  });

  it("a wrong setting fails before anything else, naming it", async () => {
    const err: string[] = [];
    const code = await doctorCommand(
      { CLUSTER: "localnet", RELAY: "jito-nyc" },
      { out: () => undefined, err: (l) => err.push(l) },
    );
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^FAIL config .*RELAY names an unknown relay "jito-nyc"/);
  });
});

describe("runDoctor against the localnet", () => {
  it("reports a healthy localnet (without lookup table: a warning only)", async () => {
    const report = await runDoctor(input());
    const r = byName(report);
    expect(report.failed).toBe(false);
    expect(r.get("launch-global")?.detail).toMatch(/decodes with @pump-fun\/pump-sdk \d/);
    expect(r.get("relay localnet2")?.status).toBe("ok");
    expect(r.get("lookup-table")?.status).toBe("warn");
    expect(r.get("lookup-table")?.detail).toContain("LOOKUP_TABLES");
  });

  it("reports what the auto fee policy pays now, and warns when its cap binds", async () => {
    const fixed = byName(await runDoctor(input())).get("fee-policy")!;
    expect(fixed.detail).toContain("fixed 10000 micro-lamports");
    const auto = byName(
      await runDoctor(
        input({ computeUnitPrice: { mode: "auto", percentile: 90, maxMicroLamports: 2_000_000n } }),
      ),
    ).get("fee-policy")!;
    expect(auto.status).toBe("ok");
    expect(auto.detail).toMatch(/^auto:p90, cap 2000000: cluster-wide \d+ micro-lamports per CU now/);
    const capped = byName(
      await runDoctor(
        input({ computeUnitPrice: { mode: "auto", minMicroLamports: 1_000n, maxMicroLamports: 1_000n } }),
      ),
    ).get("fee-policy")!;
    expect(capped.status).toBe("warn");
    expect(capped.detail).toContain("COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS");
  });

  it("fails loudly when the launch Global account's layout changed", async () => {
    net.admin.setLaunchGlobalLayout("altered");
    const report = await runDoctor(input());
    const global = byName(report).get("launch-global")!;
    expect(report.failed).toBe(true);
    expect(global.status).toBe("fail");
    expect(global.detail).toContain("does not decode with @pump-fun/pump-sdk");
    expect(global.detail).toContain("layout changed");
    // The other program accounts are still fine, each on its own line.
    expect(byName(report).get("swap-global-config")?.status).toBe("ok");
  });

  it("fails when RPC_URL serves another cluster than CLUSTER", async () => {
    const r = byName(await runDoctor(input({}, "mainnet"))).get("rpc-cluster")!;
    expect(r.status).toBe("fail");
    expect(r.detail).toContain("not mainnet's 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d");
    expect(r.detail).toContain("RPC_URL and CLUSTER");
  });

  it("fails for a relay that does not answer, and for one answering 5xx; never prints their URLs", async () => {
    net.admin.setRelay2Faults({ errorRate: 1, errorKind: "http500" });
    const report = await runDoctor(
      input({
        relays: [
          { name: "localnet", url: net.relayUrl },
          { name: "localnet2", url: net.relay2Url },
          {
            name: "gone",
            url: "http://127.0.0.1:1/?c=secret-key",
            headers: { "x-jito-auth": "secret-uuid" },
          },
        ],
      }),
    );
    const r = byName(report);
    expect(r.get("relay localnet")?.status).toBe("ok");
    expect(r.get("relay localnet2")?.status).toBe("fail");
    expect(r.get("relay gone")?.status).toBe("fail");
    expect(r.get("relay gone")?.detail).toContain("does not answer");
    expect(report.lines.join("\n")).not.toMatch(/secret-key|secret-uuid/);
  });

  it("fails for tip accounts that do not exist when the tip is below rent exemption", async () => {
    const report = await runDoctor(
      input({ relayTipAccounts: ["96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5"], relayTipLamports: 1_000n }),
    );
    const r = byName(report).get("relay-tip-accounts")!;
    expect(r.status).toBe("fail");
    expect(r.detail).toContain("RELAY_TIP_ACCOUNTS");
  });

  it("fails for a configured lookup table that does not exist", async () => {
    const r = byName(
      await runDoctor(input({ lookupTables: ["96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5"] })),
    ).get("lookup-table")!;
    expect(r.status).toBe("fail");
    expect(r.detail).toContain("does not exist");
  });
});

describe("DOCTOR_AT_START", () => {
  const logger = () => {
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const at = (level: string) => (obj: object, msg: string) =>
      lines.push({ level, obj: obj as Record<string, unknown>, msg });
    return { lines, info: at("info"), warn: at("warn"), error: at("error") };
  };

  it("warn: logs the failed check and lets the start go on", async () => {
    net.admin.setLaunchGlobalLayout("altered");
    const log = logger();
    await doctorAtStart("warn", input(), log);
    expect(log.lines.some((l) => l.level === "warn" && l.obj.check === "launch-global")).toBe(true);
    expect(log.lines.at(-1)?.msg).toContain("starting anyway");
  });

  it("refuse: stops the start with the failing checks", async () => {
    net.admin.setLaunchGlobalLayout("altered");
    const log = logger();
    await expect(doctorAtStart("refuse", input(), log)).rejects.toBeInstanceOf(DoctorRefusedError);
    await expect(doctorAtStart("refuse", input(), log)).rejects.toThrow(/launch-global: .*layout changed/);
  });

  it("off: runs nothing", async () => {
    const log = logger();
    net.admin.resetStats();
    await doctorAtStart("off", input(), log);
    expect(log.lines).toEqual([]);
    expect(Object.keys(net.admin.stats())).toEqual([]);
  });
});
