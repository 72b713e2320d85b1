/** The second relay's own fault switches, the launch Global layout switch, and deployed-program accounts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../localnet/index.js";
import { LAUNCH_GLOBAL, LAUNCH_PROGRAM_ID, LAUNCH_SWAP_PROGRAM_ID } from "../../src/launch/programs.js";

// The localnet refuses POSTs that are not application/json (issue 23: no cross-site admin calls).
const JSON_HEADERS = { "content-type": "application/json" };

let net: LocalnetHandle;
beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
});
afterAll(() => net.close());

async function call(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return { status: res.status, body: (await res.json()) as { result?: unknown; error?: unknown } };
}

async function admin(path: string, body: unknown) {
  const res = await fetch(`${net.adminUrl}${path}`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("localnet mainnet-readiness switches", () => {
  it("/relay2 has its own fault switches: faults on one relay leave the other alone", async () => {
    expect((await admin("/relay2/faults", { errorRate: 1, errorKind: "http500" })).status).toBe(200);
    expect((await call(net.relay2Url, "getHealth")).status).toBe(500);
    expect((await call(net.relayUrl, "getHealth")).body.result).toBe("ok");
    await admin("/relay2/faults", { clear: true });
    net.admin.setFaults({ endpoints: ["relay"], errorRate: 1, errorKind: "http429" });
    expect((await call(net.relayUrl, "getHealth")).status).toBe(429);
    expect((await call(net.relay2Url, "getHealth")).body.result).toBe("ok");
    // clearFaults resets both.
    net.admin.setRelay2Faults({ errorRate: 1 });
    net.admin.clearFaults();
    expect((await call(net.relay2Url, "getHealth")).body.result).toBe("ok");
    expect(net.admin.stats()["relay2.getHealth"]).toBeGreaterThan(0);
  });

  it("alters the launch Global layout (8 bytes inserted after the discriminator) and restores it", async () => {
    const read = async () => {
      const r = await call(net.rpcUrl, "getAccountInfo", [LAUNCH_GLOBAL.toBase58(), { encoding: "base64" }]);
      const value = (r.body.result as { value: { data: [string, string] } }).value;
      return Buffer.from(value.data[0], "base64");
    };
    const original = await read();
    expect((await admin("/launch-global-layout", { layout: "altered" })).status).toBe(200);
    const altered = await read();
    expect(altered.length).toBe(original.length + 8);
    expect(altered.subarray(0, 8)).toEqual(original.subarray(0, 8));
    expect(altered.subarray(16)).toEqual(original.subarray(8));
    expect((await admin("/launch-global-layout", { layout: "sideways" })).status).toBe(400);
    await admin("/launch-global-layout", { layout: "original" });
    expect(await read()).toEqual(original);
  });

  it("answers the emulated programs' ids as deployed (executable, upgradeable loader) accounts", async () => {
    const r = await call(net.rpcUrl, "getMultipleAccounts", [
      [LAUNCH_PROGRAM_ID.toBase58(), LAUNCH_SWAP_PROGRAM_ID.toBase58()],
      { encoding: "base64" },
    ]);
    const value = (r.body.result as { value: { executable: boolean; owner: string }[] }).value;
    expect(value.map((v) => [v.executable, v.owner])).toEqual([
      [true, "BPFLoaderUpgradeab1e11111111111111111111111"],
      [true, "BPFLoaderUpgradeab1e11111111111111111111111"],
    ]);
  });
});
