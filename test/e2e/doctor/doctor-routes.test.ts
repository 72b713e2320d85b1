/** `npm run doctor` checks each configured route: it answers, its tip accounts exist, its tip meets its minimum. */
import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { doctorCommand } from "../../../src/cli/doctor-command.js";
import { startLocalnet } from "../../../localnet/index.js";
import { createRpcClient } from "../../../src/chain/rpc-client.js";
import { checkRoute } from "../../../src/doctor/routes-check.js";

describe("doctor: ROUTES", () => {
  it("on the sandbox, every localnet route answers, its own tip accounts exist, its tip meets its minimum", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await doctorCommand(
      { ROUTES: "localnet-route-a,localnet-route-b" },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const lines = out.filter((l) => /^(ok|WARN|FAIL) +route /.test(l));
    expect(lines).toHaveLength(6);
    expect(lines.every((l) => l.startsWith("ok"))).toBe(true);
    expect(lines.join("\n")).toMatch(/route localnet-route-a tips +4 tip accounts exist; tip 1000 lamports/);
    expect(lines.join("\n")).toMatch(/route localnet-route-b tip +tip 1000 lamports \(minimum 1000\)/);
  });

  it("fails a route whose tip is under its minimum, or whose tip accounts are not on this cluster", async () => {
    const net = await startLocalnet({ port: 0, slotMs: 0 });
    try {
      const rpc = createRpcClient({ url: net.rpcUrl, timeoutMs: 2_000, readRetries: 0 });
      const route = net.routes[0]!;
      const results = await checkRoute(
        rpc,
        {
          name: "x",
          url: route.url,
          tipAccounts: [Keypair.generate().publicKey.toBase58()],
          minTipLamports: 1_000n,
          tipLamports: 500n,
          wire: "jsonrpc",
        },
        2_000,
      );
      expect(results.map((r) => [r.name, r.status])).toEqual([
        ["route x", "ok"],
        ["route x tips", "fail"],
        ["route x tip", "fail"],
      ]);
      expect(results[2]!.detail).toBe("tip 500 is under the route's minimum 1000 lamports");
    } finally {
      await net.close();
    }
  });
});
