/**
 * Issue 29 finding 5, probed as an attacker would: a key with `wallets` + `transfer` and a `destinations_allow`
 * rule (even wallet-bound) imports an attacker's secret, or creates a wallet (whose secret it receives); that
 * address must not become "the account's own" for the destinations rule. 0 lamports move on chain.
 */
import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { useE2e } from "../helpers/use-e2e.js";
import { callWith, createSubKey, expectRefusal } from "../helpers/security.js";

const e2e = useE2e();

/** An account whose bot key holds `scopes`, is bound to the default wallet and may pay no outside address. */
async function restrictedBot(scopes: string[]) {
  const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
  const bot = await createSubKey(e2e.app, root, { name: "bot", scopes, wallets: [wallet] });
  const put = await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, { destinations_allow: [] });
  expect(put.status).toBe(200);
  return { root, wallet, bot };
}

async function send(key: string, destination: string) {
  return callWith(e2e.app, key, "POST", "/v1/sol/transfer/execute", {
    destination_wallet: destination,
    amount: "0.5",
  });
}

describe("destinations_allow: wallets a restricted key adds are not the account's own", () => {
  it("import path: the attacker's imported address stays an outside destination", async () => {
    const { wallet, bot } = await restrictedBot(["wallets", "transfer"]);
    const attacker = Keypair.generate();
    const imported = await callWith(e2e.app, bot.apiKey, "POST", "/v1/wallets/import", {
      private_key_base58: bs58.encode(attacker.secretKey),
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const to = attacker.publicKey.toBase58();
    const before = [await e2e.balance(wallet), await e2e.balance(to)];
    const r = await send(bot.apiKey, to);
    expectRefusal(r, 403, "destinations_allow", "transfer to an imported wallet");
    expect(r.body.detail).toBe(`policy destinations_allow: destination ${to} is not allowed for this key`);
    // Consolidate and split to it are refused the same way.
    const c = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/consolidate/execute", {
      destination_wallet: to,
      source_wallets: [wallet],
    });
    expectRefusal(c, 403, "destinations_allow", "consolidate to an imported wallet");
    const s = await callWith(e2e.app, bot.apiKey, "POST", "/v1/sol/split/execute", {
      destinations: [{ wallet: to }],
    });
    expectRefusal(s, 403, "destinations_allow", "split to an imported wallet");
    expect([await e2e.balance(wallet), await e2e.balance(to)]).toEqual(before);
  });

  it("create path: a wallet the restricted key created (and got the secret of) is refused too", async () => {
    const { wallet, bot } = await restrictedBot(["wallets", "transfer"]);
    const created = await callWith(e2e.app, bot.apiKey, "POST", "/v1/wallets", {});
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(typeof created.body.private_key_base58).toBe("string");
    const to = created.body.public_key as string;
    const before = [await e2e.balance(wallet), await e2e.balance(to)];
    expectRefusal(await send(bot.apiKey, to), 403, "destinations_allow", "transfer to a created wallet");
    expect([await e2e.balance(wallet), await e2e.balance(to)]).toEqual(before);
  });

  it("a wallets-only key cannot widen another key's rule; the root key's wallets stay allowed", async () => {
    const { root, wallet, bot } = await restrictedBot(["transfer"]);
    const adder = await createSubKey(e2e.app, root, { name: "adder", scopes: ["wallets"] });
    const attacker = Keypair.generate();
    const imported = await callWith(e2e.app, adder.apiKey, "POST", "/v1/wallets/import", {
      private_key_base58: bs58.encode(attacker.secretKey),
    });
    expect(imported.status).toBe(200);
    const to = attacker.publicKey.toBase58();
    const before = [await e2e.balance(wallet), await e2e.balance(to)];
    expectRefusal(await send(bot.apiKey, to), 403, "destinations_allow", "transfer to a wallets-key import");
    expect([await e2e.balance(wallet), await e2e.balance(to)]).toEqual(before);
    // A wallet the root key (or a key that could pay anywhere) added is the account's own, as before.
    const own = await callWith(e2e.app, root, "POST", "/v1/wallets", {});
    const ok = await send(bot.apiKey, own.body.public_key as string);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const payer = await createSubKey(e2e.app, root, { name: "payer", scopes: ["wallets", "transfer"] });
    const vouched = await callWith(e2e.app, payer.apiKey, "POST", "/v1/wallets", {});
    expect((await send(bot.apiKey, vouched.body.public_key as string)).status).toBe(200);
  });
});
