/**
 * `npm run doctor`'s program-generation check against both localnet generations: it detects which one
 * is live from the programs' instruction set (a simulated sell_v3 / sell_v2), states what the service
 * will use, and fails a PROGRAM_GENERATION pinned to a generation the cluster does not run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { localnetChainOptions } from "../../../src/chain/localnet-options.js";
import { createRpcClient } from "../../../src/chain/rpc-client.js";
import { checkProgramGeneration } from "../../../src/doctor/generation-check.js";

let older: LocalnetHandle;
let newer: LocalnetHandle;

beforeAll(async () => {
  [older, newer] = await Promise.all([
    startLocalnet({ port: 0, slotMs: 0, programs: "2026-09" }),
    startLocalnet({ port: 0, slotMs: 0, programs: "2026-10" }),
  ]);
});
afterAll(async () => {
  await Promise.all([older?.close(), newer?.close()]);
});

const rpcOf = (net: LocalnetHandle) =>
  createRpcClient({ url: localnetChainOptions(net).rpcUrl, timeoutMs: 2_000, readRetries: 0 });

describe("program-generation check", () => {
  it("2026-10 programs: detected, v3 and v2 named as what the service uses", async () => {
    const r = await checkProgramGeneration(rpcOf(newer), "auto");
    expect(r.status).toBe("ok");
    expect(r.detail).toMatch(/^2026-10 is live \(the launch program knows sell_v3/);
    expect(r.detail).toContain("launchswap knows sell_v2");
    expect(r.detail).toContain("buy_exact_quote_in_v3");
    expect(r.detail).toMatch(/Global \d+ bytes, GlobalConfig \d+ bytes/);
  });

  it("2026-09 programs: detected, the legacy instructions named", async () => {
    const r = await checkProgramGeneration(rpcOf(older), "auto");
    expect(r.status).toBe("ok");
    expect(r.detail).toMatch(/^2026-09 is live \(the launch program does not know sell_v3/);
    expect(r.detail).toContain("buy_exact_sol_in / buy / sell (legacy)");
  });

  it("PROGRAM_GENERATION=2026-10 on 2026-09 programs fails; 2026-09 on 2026-10 warns", async () => {
    const pinnedNew = await checkProgramGeneration(rpcOf(older), "2026-10");
    expect(pinnedNew.status).toBe("fail");
    expect(pinnedNew.detail).toMatch(/PROGRAM_GENERATION=2026-10 but the live programs are 2026-09/);
    const pinnedOld = await checkProgramGeneration(rpcOf(newer), "2026-09");
    expect(pinnedOld.status).toBe("warn");
  });
});
