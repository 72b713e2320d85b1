/**
 * The multi-process harness itself: localnet in its own process (JSON line, admin routes over HTTP), a
 * service process configured through its environment, kill -9 and a restart on the same port and database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, parseProcUsage, procUsage, startCluster, type Cluster } from "./index.js";

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ processes: 1, slotMs: 100 });
});
afterAll(async () => {
  await cluster?.close();
});

describe("multi-process harness", () => {
  it("runs a trade through a service process against a localnet process, and survives kill -9", async () => {
    const { localnet } = cluster;
    expect(localnet.info.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(localnet.child.pid).not.toBe(process.pid);
    const { apiKey, wallet } = await cluster.setupKey({ sol: 2n });
    expect(await localnet.balance(wallet)).toBe(2_000_000_000n);
    const { mint } = await localnet.createToken();
    await localnet.resetRelaySignatures();

    const svc = cluster.services[0]!;
    const res = await apiRequest<{ signature: string; confirmed: boolean }>(
      svc.baseUrl,
      "POST",
      "/v1/trades/execute",
      { apiKey, body: { action: "buy", mint, amount: "0.01", confirm: false } },
    );
    expect(res.status).toBe(200);
    expect(res.body.confirmed).toBe(false);
    expect(await localnet.relaySignatures()).toEqual([
      { signature: res.body.signature, sends: 1, accepted: true },
    ]);

    await svc.kill();
    expect((await svc.child.exited).signal).toBe("SIGKILL");
    const again = await cluster.addService({ port: svc.port });
    const history = await apiRequest<{ executions: { signatures: string[] }[] }>(
      again.baseUrl,
      "GET",
      "/v1/executions",
      { apiKey },
    );
    expect(history.status).toBe(200);
    expect(history.body.executions.map((e) => e.signatures[0])).toEqual([res.body.signature]);
  });

  it("answers 4xx with a detail for a missing key (the client reports statuses, never throws for them)", async () => {
    const res = await apiRequest<{ detail: string }>(cluster.services.at(-1)!.baseUrl, "GET", "/v1/wallets");
    expect(res.status).toBe(401);
    expect(typeof res.body.detail).toBe("string");
  });

  it("reads a service process's CPU time and peak memory from /proc", () => {
    const usage = procUsage(cluster.services.at(-1)!.pid);
    if (usage === null) return; // not Linux
    expect(usage.cpuMs).toBeGreaterThan(0);
    expect(usage.peakRssBytes).toBeGreaterThanOrEqual(usage.rssBytes);
    expect(usage.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("parses /proc texts, command names with spaces and parentheses included", () => {
    const stat = "42 (node (x) y) S 1 42 42 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0 5 0 0";
    expect(parseProcUsage(stat, "VmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n")).toEqual({
      cpuMs: 3250,
      peakRssBytes: 2048 * 1024,
      rssBytes: 1024 * 1024,
    });
  });
});
