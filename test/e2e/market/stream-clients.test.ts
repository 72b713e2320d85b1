/**
 * GET /v1/stream through its two consumers: the typed client's stream() and the CLI's `stream` command,
 * against the app listening on a port with its market feed on an in-process localnet.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LaserTrade, type TradeEvent } from "@lasertrade/client";
import {
  keyAndWallet,
  localnet,
  post,
  tokenBalanceOf,
  url,
  useStreamE2e,
  waitFor,
} from "../../helpers/stream-e2e.js";

const CLI = fileURLToPath(new URL("../../../packages/cli/bin/lasertrade.js", import.meta.url));

useStreamE2e();

describe("GET /v1/stream", () => {
  it("the typed client: stream() authenticates, subscribes and yields typed events with bigint amounts", async () => {
    const { apiKey, wallet } = await keyAndWallet();
    const { mint } = localnet.admin.createToken();
    const client = new LaserTrade({
      baseUrl: url.replace(/^ws/, "http").replace(/\/v1\/stream$/, ""),
      apiKey,
    });
    const stream = await client.stream();
    await stream.subscribeTokenTrade([mint]);
    await expect(stream.subscribeAccountTrade(["bad"])).rejects.toThrow(/not a valid address/);
    const res = await post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.02" });
    const iterator = stream[Symbol.asyncIterator]();
    const { value } = await iterator.next();
    expect(value).toMatchObject({ type: "trade", signature: res.signature, trader: wallet, side: "buy" });
    const ev = value as TradeEvent;
    expect(typeof ev.sol_amount).toBe("bigint");
    expect(ev.token_amount).toBe(await tokenBalanceOf(wallet, mint));
    stream.close();
    expect((await stream.closed).code).toBe(1000);
    await expect(new LaserTrade({ baseUrl: client.baseUrl, apiKey: "lt_unknown" }).stream()).rejects.toThrow(
      /4401/,
    );
  });

  it("the CLI: `lasertrade --json stream trades <mint>` prints one JSON line per trade; the table mode a header and rows", async () => {
    const { apiKey, wallet } = await keyAndWallet();
    const { mint } = localnet.admin.createToken();
    const baseUrl = url.replace(/^ws/, "http").replace(/\/v1\/stream$/, "");
    const env = {
      ...process.env,
      LASERTRADE_URL: baseUrl,
      LASERTRADE_API_KEY: apiKey,
      LASERTRADE_CONFIG: "/nonexistent/lasertrade.json",
    };
    const json = spawn(process.execPath, [CLI, "--json", "stream", "trades", mint], { env });
    const table = spawn(process.execPath, [CLI, "stream", "account", wallet], { env });
    const lines = (child: typeof json) => {
      const out: string[] = [];
      let buf = "";
      child.stdout.on("data", (d: Buffer) => {
        buf += d.toString();
        const parts = buf.split("\n");
        buf = parts.pop()!;
        out.push(...parts);
      });
      return out;
    };
    const jsonLines = lines(json);
    const tableLines = lines(table);
    try {
      await waitFor(() => tableLines.length >= 1);
      let res: Record<string, unknown> | null = null;
      // Retry the trade until the CLI (a separate process) has subscribed and seen one.
      while (jsonLines.length === 0) {
        res = await post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
        await new Promise((r) => setTimeout(r, 300));
      }
      const first = JSON.parse(jsonLines[0]!) as Record<string, unknown>;
      expect(first).toMatchObject({ type: "trade", mint, trader: wallet, side: "buy" });
      expect(typeof first.sol_amount).toBe("number");
      expect(res).not.toBeNull();
      await waitFor(() => tableLines.length >= 2);
      expect(tableLines[0]).toMatch(/^time\s+type\s+side\s+mint/);
      expect(tableLines[1]).toContain(wallet);
    } finally {
      json.kill("SIGINT");
      table.kill("SIGINT");
    }
  });
});
