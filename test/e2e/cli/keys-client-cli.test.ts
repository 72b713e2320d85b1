/**
 * Issue 19 through the typed client and the built CLI against a listening app (no chain): keys create, list,
 * policy, freeze, revoke, account freeze, activity.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LaserTrade, LaserTradeError } from "@lasertrade/client";
import { buildTestApp, type TestApp } from "../../helpers/app.js";

const CLI = fileURLToPath(new URL("../../../packages/cli/bin/lasertrade.js", import.meta.url));

describe("keys and policies from the client and the CLI", () => {
  let t: TestApp;
  let baseUrl = "";
  let dir = "";
  beforeAll(async () => {
    t = await buildTestApp();
    baseUrl = await t.app.listen({ host: "127.0.0.1", port: 0 });
    dir = await mkdtemp(join(tmpdir(), "lt-keys-cli-"));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  function cli(apiKey: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { PATH: process.env.PATH, HOME: dir, LASERTRADE_URL: baseUrl, LASERTRADE_API_KEY: apiKey };
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, "--json", ...args], { env }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, stdout, stderr });
      });
    });
  }

  it("client: create, policy, freeze, revoke, account freeze, activity", async () => {
    const root = await t.setup();
    const lt = new LaserTrade({ baseUrl, apiKey: root.apiKey, retry: { retries: 0 } });
    const bot = await lt.keys.create({ name: "bot", scopes: ["trade", "read"] });
    expect(bot.api_key).toMatch(/^lt_/);
    const withPolicy = await lt.keys.setPolicy(bot.id, { max_sol_per_24h: "5", max_tip_lamports: "0" });
    expect(withPolicy.policy).toEqual({ max_sol_per_24h: "5", max_tip_lamports: "0" });
    expect((await lt.keys.list()).map((k) => k.name)).toEqual(["root", "bot"]);
    const botClient = new LaserTrade({ baseUrl, apiKey: bot.api_key, retry: { retries: 0 } });
    await lt.keys.freeze(bot.id);
    // Issue 30: a frozen key still reads what it holds; its writes are refused.
    expect(await botClient.wallets.list()).toHaveLength(1);
    const frozen = await botClient.wallets.create({}).catch((e: unknown) => e);
    expect(frozen).toBeInstanceOf(LaserTradeError);
    expect((frozen as LaserTradeError).status).toBe(403);
    expect((frozen as LaserTradeError).body.rule).toBe("frozen");
    await lt.keys.unfreeze(bot.id);
    expect(await botClient.wallets.list()).toHaveLength(1);
    const noScope = await botClient.wallets.create({}).catch((e: unknown) => e);
    expect((noScope as LaserTradeError).detail).toBe('API key lacks the "wallets" scope');
    expect(await lt.account.freeze()).toEqual({ frozen: true });
    expect(await lt.account.unfreeze()).toEqual({ frozen: false });
    await lt.keys.revoke(bot.id);
    expect((await lt.keys.list()).map((k) => k.name)).toEqual(["root"]);
    const page = await lt.activity.list({ limit: "3" });
    expect(page.activity).toHaveLength(3);
    expect(page.activity[0]?.route).toBe("/v1/keys/:id");
    expect(typeof page.next_cursor).toBe("string");
  });

  it("CLI: keys create|list|freeze|revoke, policy set, activity", async () => {
    const root = await t.setup();
    const created = await cli(root.apiKey, "keys", "create", "bot", "--scopes", "trade,read");
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: number; api_key: string; scopes: string[] };
    expect(key.scopes).toEqual(["read", "trade"]);
    const policy = await cli(
      root.apiKey,
      "policy",
      "set",
      String(key.id),
      "--max-sol-per-24h",
      "5",
      "--venues",
      "bonding_curve",
    );
    expect(policy.code, policy.stderr).toBe(0);
    expect(JSON.parse(policy.stdout)).toMatchObject({
      policy: { max_sol_per_24h: "5", venues: ["bonding_curve"] },
    });
    const bad = await cli(root.apiKey, "policy", "set", String(key.id), "--max-sol-per-24h", "lots");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("max_sol_per_24h must be a positive SOL amount");
    expect((await cli(root.apiKey, "keys", "freeze", String(key.id))).code).toBe(0);
    const listed = JSON.parse((await cli(root.apiKey, "keys", "list")).stdout) as {
      name: string;
      frozen: boolean;
    }[];
    expect(listed.map((k) => [k.name, k.frozen])).toEqual([
      ["root", false],
      ["bot", true],
    ]);
    expect((await cli(root.apiKey, "keys", "revoke", String(key.id))).code).toBe(0);
    const activity = JSON.parse((await cli(root.apiKey, "activity", "--limit", "10")).stdout) as {
      activity: { route: string }[];
    };
    expect(activity.activity.map((a) => a.route)).toEqual([
      "/v1/keys/:id",
      "/v1/keys/:id/freeze",
      "/v1/keys/:id/policy",
      "/v1/keys/:id/policy",
      "/v1/keys",
    ]);
  });

  it("issue 29: a starting policy on create (client and CLI); a wider key is refused with rule powers", async () => {
    const root = await t.setup();
    const lt = new LaserTrade({ baseUrl, apiKey: root.apiKey, retry: { retries: 0 } });
    const manager = await lt.keys.create({
      name: "manager",
      scopes: ["keys", "trade"],
      policy: { max_sol_per_24h: "2", venues: ["bonding_curve"] },
    });
    expect(manager.policy).toEqual({ max_sol_per_24h: "2", venues: ["bonding_curve"] });
    const asManager = new LaserTrade({ baseUrl, apiKey: manager.api_key, retry: { retries: 0 } });
    const wider = await asManager.keys
      .create({ name: "w", scopes: ["trade", "transfer"] })
      .catch((e: unknown) => e);
    expect((wider as LaserTradeError).status).toBe(403);
    expect((wider as LaserTradeError).body.rule).toBe("powers");
    const created = await cli(
      manager.api_key,
      "keys",
      "create",
      "bot",
      "--scopes",
      "trade",
      "--max-sol-per-24h",
      "1",
      "--venues",
      "bonding_curve",
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      scopes: ["trade"],
      policy: { max_sol_per_24h: "1", venues: ["bonding_curve"] },
    });
    const looser = await cli(
      manager.api_key,
      "keys",
      "create",
      "big",
      "--scopes",
      "trade",
      "--max-sol-per-24h",
      "3",
    );
    expect(looser.code).not.toBe(0);
    expect(looser.stderr).toContain("a policy looser in max_sol_per_24h, venues");
  });
});
