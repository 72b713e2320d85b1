/**
 * Issue 29 finding 4, probed as an attacker would: `max_sol_per_execution` bounds the worst case of the
 * transaction(s) the service would sign, not only a SOL amount stated in the body. Token-unit buys,
 * consolidate, split and bundle token legs are refused (dry runs report the verdict), and nothing moves on
 * chain. Findings 5 and 12 have their own files (spend-destinations, spend-freeze).
 */
import { describe, expect, it } from "vitest";
import { useE2e } from "../helpers/use-e2e.js";
import { callWith, createSubKey, expectRefusal } from "../helpers/security.js";
import { external } from "../helpers/e2e.js";

const e2e = useE2e();

/** Sum of the lamports of `addresses`. */
async function balances(addresses: string[]): Promise<bigint[]> {
  return Promise.all(addresses.map((a) => e2e.balance(a)));
}

/** A sub-key of a fresh funded account with `scopes` and `policy`. */
async function cappedKey(scopes: string[], policy: Record<string, unknown>, sol = 10n) {
  const { apiKey: root, wallet } = await e2e.setup({ sol });
  const bot = await createSubKey(e2e.app, root, { name: "bot", scopes });
  const put = await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, policy);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { root, wallet, bot };
}

async function executions(root: string): Promise<unknown[]> {
  return (await callWith(e2e.app, root, "GET", "/v1/executions")).body.executions as unknown[];
}

describe("spend bounds: max_sol_per_execution holds on the built transaction", () => {
  it("a token-unit buy worth more than the cap is refused before signing; nothing moves", async () => {
    const { root, wallet, bot } = await cappedKey(["trade", "read"], { max_sol_per_execution: "0.01" });
    const { mint } = e2e.localnet.admin.createToken();
    const [before] = await balances([wallet]);
    // About 0.1 SOL of tokens on a fresh curve, with no SOL amount in the body.
    const body = { action: "buy", mint, amount: "3000000000000", denominated_in_sol: false };
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", body);
    expectRefusal(r, 403, "max_sol_per_execution", "token-unit buy");
    expect(r.body.detail).toMatch(
      /^policy max_sol_per_execution: this trade needs \d+\.\d{2,9}, at most 0\.01 SOL per execution$/,
    );
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    expect(await executions(root)).toEqual([]);
    // The dry run answers the same verdict, and sends nothing either.
    const dry = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", { ...body, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.policy).toMatchObject({ allowed: false, rule: "max_sol_per_execution" });
    expect(await e2e.balance(wallet)).toBe(before);
    // A token-unit buy inside the cap still goes through (fees, tip and rent are not the amount).
    const small = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      ...body,
      amount: "100000000",
    });
    expect(small.status, JSON.stringify(small.body)).toBe(200);
  });

  it("a SOL buy of exactly the cap still passes (the cap counts the amount, not fees)", async () => {
    const { bot } = await cappedKey(["trade"], { max_sol_per_execution: "0.05" });
    const { mint } = e2e.localnet.admin.createToken();
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.05",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it("consolidate of large SOL to an outside address is refused, also as a dry run", async () => {
    const outside = external();
    const { root, wallet, bot } = await cappedKey(["transfer", "read"], {
      max_sol_per_execution: "0.5",
      destinations_allow: [outside],
    });
    const source = await e2e.fundedWallet(root, 50n);
    const before = await balances([wallet, source, outside]);
    const dry = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/consolidate/execute", {
      destination_wallet: outside,
      dry_run: true,
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.policy).toMatchObject({ allowed: false, rule: "max_sol_per_execution" });
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/consolidate/execute", {
      destination_wallet: outside,
    });
    expectRefusal(r, 403, "max_sol_per_execution", "consolidate");
    expect(r.body.detail).toMatch(
      /^policy max_sol_per_execution: this consolidate needs \d+\.\d+, at most 0\.5/,
    );
    expect(await balances([wallet, source, outside])).toEqual(before);
    expect(await executions(root)).toEqual([]);
  });

  it("the cap holds over a consolidate's sources together: it stops at the source that would pass it", async () => {
    const outside = external();
    const { root, bot } = await cappedKey(["transfer"], {
      max_sol_per_execution: "1.5",
      destinations_allow: [outside],
    });
    const sources = [await e2e.fundedWallet(root, 1n), await e2e.fundedWallet(root, 1n)];
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/consolidate/execute", {
      destination_wallet: outside,
      source_wallets: sources,
    });
    expectRefusal(r, 403, "max_sol_per_execution", "second source of a consolidate");
    const completed = r.body.completed_transactions as { source_wallet: string; transfer_lamports: string }[];
    expect(completed.map((c) => c.source_wallet)).toEqual([sources[0]]);
    // Only the first source's transfer (under the cap) left; the second wallet kept all of its SOL.
    expect(await e2e.balance(outside)).toBe(BigInt(completed[0]!.transfer_lamports));
    expect(await e2e.balance(sources[1]!)).toBe(1_000_000_000n);
  });

  it("split is refused when its transfers pass the cap; nothing moves", async () => {
    const a = external();
    const b = external();
    const { root, wallet, bot } = await cappedKey(["transfer"], {
      max_sol_per_execution: "1",
      destinations_allow: [a, b],
    });
    const before = await balances([wallet, a, b]);
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/split/execute", {
      total_percent: "50",
      destinations: [{ wallet: a }, { wallet: b }],
    });
    expectRefusal(r, 403, "max_sol_per_execution", "split");
    expect(await balances([wallet, a, b])).toEqual(before);
    expect(await executions(root)).toEqual([]);
  });

  it("a bundle's token-unit buy leg is bounded by its max_sol_cost; nothing moves", async () => {
    const { root, wallet, bot } = await cappedKey(["create", "read"], { max_sol_per_execution: "0.01" });
    const { mint } = e2e.localnet.admin.createToken();
    const before = await e2e.balance(wallet);
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/laser/bundle", {
      mint,
      accounts: [{ type: "buy", amount: "3000000000000", denominatedInSol: false }],
      bundleTip: "0.00001",
    });
    expectRefusal(r, 403, "max_sol_per_execution", "bundle token leg");
    expect(r.body.detail).toMatch(/^policy max_sol_per_execution: this bundle needs /);
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    expect(await executions(root)).toEqual([]);
  });

  it("the 24 h reservation counts the built transaction's worst case (a token-unit buy)", async () => {
    const { root, wallet, bot } = await cappedKey(["trade"], { max_sol_per_24h: "0.05" });
    const { mint } = e2e.localnet.admin.createToken();
    const before = await e2e.balance(wallet);
    const r = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "3000000000000",
      denominated_in_sol: false,
    });
    expectRefusal(r, 403, "max_sol_per_24h", "token-unit buy over the daily cap");
    expect(r.body.detail).toMatch(
      /^policy max_sol_per_24h: 0\.00 of 0\.05 SOL used, this trade needs 0\.\d+$/,
    );
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await executions(root)).toEqual([]);
  });
});
