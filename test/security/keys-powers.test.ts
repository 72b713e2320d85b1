/**
 * Issue 29, finding 1 (and the sub-key cap of 9, the names of 17), probed as the attacker did: a sub-key
 * holding `keys` tries to mint wider keys, to touch the root key, to loosen its own policy; the root key tries
 * to freeze itself. Each probe asserts the refusal and that no SOL left the account (localnet balances).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/domain/keys/scopes.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { external } from "../helpers/e2e.js";
import { callWith, createSubKey, expectRefusal } from "../helpers/security.js";
import { useE2e } from "../helpers/use-e2e.js";

const e2e = useE2e();

/** The root key's id (GET /v1/keys lists it first). */
async function rootId(rootKey: string): Promise<number> {
  const list = await callWith(e2e.app, rootKey, "GET", "/v1/keys");
  const first = (list.body.keys as { id: number; root: boolean }[])[0]!;
  expect(first.root).toBe(true);
  return first.id;
}

/** A transfer of `sol` from `wallet` to a fresh outside address with `key`; the answer and where it went. */
async function sendOut(key: string, wallet: string, sol = "0.5") {
  const to = external();
  const r = await callWith(e2e.app, key, "POST", "/v1/sol/transfer/execute", {
    source_wallet: wallet,
    destination_wallet: to,
    amount: sol,
  });
  return { ...r, to };
}

describe("key powers only narrow (issue 29, finding 1)", () => {
  it("a keys-only sub-key cannot mint an all-scope key; what it can mint sends nothing", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 5n });
    const keysOnly = await createSubKey(e2e.app, root, { name: "manager", scopes: ["keys"] });
    const before = await e2e.balance(wallet);
    const minted = await callWith(e2e.app, keysOnly.apiKey, "POST", "/v1/keys", {
      name: "escalated",
      scopes: [...SCOPES],
    });
    expectRefusal(minted, 403, "powers", "all-scope key");
    expect(minted.body.detail).toBe(
      "a new key may not hold powers its creator lacks: scopes read, trade, create, transfer, wallets, build",
    );
    expect(minted.body.api_key).toBeUndefined();
    for (const scopes of [["transfer"], ["keys", "transfer"], ["read"]]) {
      const r = await callWith(e2e.app, keysOnly.apiKey, "POST", "/v1/keys", { name: "x", scopes });
      expectRefusal(r, 403, "powers", scopes.join());
    }
    // Within its powers it may create a keys-only key, which can move nothing.
    const sibling = await createSubKey(e2e.app, keysOnly.apiKey, { name: "also-keys", scopes: ["keys"] });
    const send = await sendOut(sibling.apiKey, wallet);
    expectRefusal(send, 403, "scope", "minted key transfers");
    const names = (await callWith(e2e.app, root, "GET", "/v1/keys")).body.keys as { name: string }[];
    expect(names.map((k) => k.name)).toEqual(["root", "manager", "also-keys"]);
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.balance(send.to)).toBe(0n);
    // The refusals are in the activity log under the manager key, rule `powers`: sampled rows (1st, 2nd,
    // 4th… of a key, route and rule in a minute) whose `refusals` counts add up to all four.
    const log = await callWith(e2e.app, root, "GET", `/v1/activity?rule=powers&key_id=${keysOnly.id}`);
    const rows = log.body.activity as { refusals: number }[];
    expect(rows.length).toBe(3);
    expect(rows.reduce((n, r) => n + r.refusals, 0)).toBe(4);
  });

  it("no sub-key sets a policy on, freezes, unfreezes or revokes the root key; the root key keeps working", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 5n });
    const rid = await rootId(root);
    // Even a sub-key with every scope, unbound and without a policy.
    const strong = await createSubKey(e2e.app, root, { name: "strong", scopes: [...SCOPES] });
    const probes: [string, "PUT" | "POST" | "DELETE", string, unknown][] = [
      ["set the policy of", "PUT", `/v1/keys/${rid}/policy`, { max_sol_per_24h: "0.000000001" }],
      ["freeze", "POST", `/v1/keys/${rid}/freeze`, {}],
      ["unfreeze", "POST", `/v1/keys/${rid}/unfreeze`, {}],
      ["revoke", "DELETE", `/v1/keys/${rid}`, {}],
    ];
    for (const [verb, method, url, body] of probes) {
      const r = await callWith(e2e.app, strong.apiKey, method, url, body);
      expect(r, verb).toEqual({
        status: 403,
        body: {
          detail: `a sub-key may not ${verb} the root key`,
          rule: "powers",
          code: "keys.root_untouchable",
        },
      });
    }
    const keys = (await callWith(e2e.app, root, "GET", "/v1/keys")).body.keys as Record<string, unknown>[];
    expect(keys[0]).toMatchObject({ root: true, frozen: false, policy: {} });
    // The root key still revokes the sub-key, freezes and unfreezes the account, and moves SOL.
    expect((await callWith(e2e.app, root, "DELETE", `/v1/keys/${strong.id}`)).status).toBe(200);
    expect((await callWith(e2e.app, root, "POST", "/v1/account/freeze")).status).toBe(200);
    expect((await callWith(e2e.app, root, "POST", "/v1/account/unfreeze")).status).toBe(200);
    const before = await e2e.balance(wallet);
    const send = await sendOut(root, wallet, "0.1");
    expect(send.status, JSON.stringify(send.body)).toBe(200);
    expect(await e2e.balance(send.to)).toBe(100_000_000n);
    expect(await e2e.balance(wallet)).toBeLessThan(before);
  });

  it("a capped, wallet-bound bot key cannot clear its own policy or mint an unbound or uncapped key", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 5n });
    const second = await e2e.fundedWallet(root, 2n);
    const bot = await createSubKey(e2e.app, root, {
      name: "bot",
      scopes: ["trade", "transfer", "keys", "read"],
      wallets: [wallet],
    });
    const policy = { max_sol_per_execution: "0.01", max_sol_per_24h: "0.05", destinations_allow: [] };
    expect((await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, policy)).status).toBe(200);
    const before = [await e2e.balance(wallet), await e2e.balance(second)];

    const own = await callWith(e2e.app, bot.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {});
    expect(own).toEqual({
      status: 403,
      body: {
        detail: "a key may not change its own policy; a key with wider powers sets it",
        rule: "powers",
        code: "keys.own_policy",
      },
    });
    const unbound = await callWith(e2e.app, bot.apiKey, "POST", "/v1/keys", {
      name: "free",
      scopes: ["transfer"],
      policy,
    });
    expectRefusal(unbound, 403, "powers", "unbound key");
    expect(unbound.body.detail).toContain("every wallet of the account");
    const otherWallet = await callWith(e2e.app, bot.apiKey, "POST", "/v1/keys", {
      name: "other",
      scopes: ["transfer"],
      wallets: [second],
      policy,
    });
    expect(otherWallet.body.detail).toBe(
      `a new key may not hold powers its creator lacks: wallets ${second}`,
    );
    const uncapped = await callWith(e2e.app, bot.apiKey, "POST", "/v1/keys", {
      name: "uncapped",
      scopes: ["transfer"],
      wallets: [wallet],
      policy: {},
    });
    expect(uncapped.body).toEqual({
      detail:
        "a new key may not hold powers its creator lacks: a policy looser in max_sol_per_execution, " +
        "max_sol_per_24h, destinations_allow",
      rule: "powers",
      code: "keys.powers_exceeded",
    });

    // Without a policy the new key starts with the bot's own; it cannot send out of the account.
    const child = await createSubKey(e2e.app, bot.apiKey, {
      name: "child",
      scopes: ["transfer"],
      wallets: [wallet],
    });
    const keys = (await callWith(e2e.app, root, "GET", "/v1/keys")).body.keys as Record<string, unknown>[];
    expect(keys.find((k) => k.id === child.id)).toMatchObject({
      wallets: [wallet],
      policy: {
        max_sol_per_execution: "0.01",
        max_sol_per_24h: "0.05",
        destinations_allow: [],
      },
    });
    const send = await sendOut(child.apiKey, wallet, "1");
    expect(send.status, JSON.stringify(send.body)).toBe(403);
    // The child may not widen its maker's policy nor its own, and the bot may not widen the child past itself.
    expectRefusal(
      await callWith(e2e.app, child.apiKey, "PUT", `/v1/keys/${bot.id}/policy`, {}),
      403,
      "scope",
      "child without keys",
    );
    const widen = await callWith(e2e.app, bot.apiKey, "PUT", `/v1/keys/${child.id}/policy`, {
      max_sol_per_execution: "1",
      max_sol_per_24h: "5",
    });
    expectRefusal(widen, 403, "powers", "widen child");
    const narrow = await callWith(e2e.app, bot.apiKey, "PUT", `/v1/keys/${child.id}/policy`, {
      max_sol_per_execution: "0.001",
      max_sol_per_24h: "0.002",
      destinations_allow: [],
    });
    expect(narrow.status, JSON.stringify(narrow.body)).toBe(200);
    expect([await e2e.balance(wallet), await e2e.balance(second)]).toEqual(before);
    expect(await e2e.balance(send.to)).toBe(0n);
  });

  it("a frozen key cannot be unfrozen by itself nor by a key with fewer powers", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 2n });
    const wide = await createSubKey(e2e.app, root, { name: "wide", scopes: ["keys", "transfer"] });
    const narrow = await createSubKey(e2e.app, root, {
      name: "narrow",
      scopes: ["keys"],
      wallets: [wallet],
    });
    expect((await callWith(e2e.app, root, "POST", `/v1/keys/${wide.id}/freeze`)).status).toBe(200);
    const self = await callWith(e2e.app, wide.apiKey, "POST", `/v1/keys/${wide.id}/unfreeze`);
    expectRefusal(self, 403, "frozen", "self unfreeze");
    const lesser = await callWith(e2e.app, narrow.apiKey, "POST", `/v1/keys/${wide.id}/unfreeze`);
    expectRefusal(lesser, 403, "powers", "narrower key unfreezes");
    const revoke = await callWith(e2e.app, narrow.apiKey, "DELETE", `/v1/keys/${wide.id}`);
    expectRefusal(revoke, 403, "powers", "narrower key revokes");
    const before = await e2e.balance(wallet);
    expectRefusal(await sendOut(wide.apiKey, wallet), 403, "frozen", "frozen key sends");
    expect(await e2e.balance(wallet)).toBe(before);
  });

  it("the root key cannot freeze itself through /v1/keys (400); the account stays usable", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 2n });
    const rid = await rootId(root);
    const r = await callWith(e2e.app, root, "POST", `/v1/keys/${rid}/freeze`);
    expect(r).toEqual({
      status: 400,
      body: {
        detail:
          "the root key cannot be frozen; POST /v1/account/freeze stops every key of the account (the root key unfreezes it)",
        code: "keys.root_not_freezable",
      },
    });
    expect((await callWith(e2e.app, root, "GET", "/v1/wallets")).status).toBe(200);
    const send = await sendOut(root, wallet, "0.1");
    expect(send.status, JSON.stringify(send.body)).toBe(200);
    expect(await e2e.balance(send.to)).toBe(100_000_000n);
  });

  it("the root key always unfreezes the account, even with its own flag set by older data", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 2n });
    const rid = await rootId(root);
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["transfer"] });
    // What the old bug left behind: a sub-key froze the root key, then the account was frozen.
    expect(await e2e.store.updateKey(rid, rid, { frozen: true })).toBe(true);
    await e2e.store.setAccountFrozen(rid, true);
    const before = await e2e.balance(wallet);
    expectRefusal(await sendOut(bot.apiKey, wallet), 403, "frozen", "bot while frozen");
    expect(await callWith(e2e.app, root, "POST", "/v1/account/unfreeze")).toEqual({
      status: 200,
      body: { frozen: false },
    });
    expect(await e2e.balance(wallet)).toBe(before);
    // The root key works, is shown unfrozen, and may clear the stale flag itself.
    const list = await callWith(e2e.app, root, "GET", "/v1/keys");
    expect((list.body.keys as { frozen: boolean }[])[0]?.frozen).toBe(false);
    expect((await callWith(e2e.app, root, "POST", `/v1/keys/${rid}/unfreeze`)).status).toBe(200);
    expect((await e2e.store.findKey(rid, rid))?.frozen).toBe(false);
  });

  it("key names that pass for the root key or hide text are refused", async () => {
    const { apiKey: root } = await e2e.setup({ sol: 0n });
    for (const name of ["root", "ROOT", "bot\u202eroot", "a\nb", "ro\u200bot"]) {
      const r = await callWith(e2e.app, root, "POST", "/v1/keys", { name, scopes: ["read"] });
      expect(r.status, JSON.stringify(name)).toBe(400);
    }
    const policy = await callWith(e2e.app, root, "POST", "/v1/keys", {
      name: "p",
      scopes: ["read"],
      policy: 5,
    });
    expect(policy).toEqual({
      status: 400,
      body: {
        detail: "policy must be a JSON object (the fields of PUT /v1/keys/{id}/policy)",
        code: "keys.policy_object",
      },
    });
    const keys = (await callWith(e2e.app, root, "GET", "/v1/keys")).body.keys as unknown[];
    expect(keys).toHaveLength(1);
  });
});

describe("MAX_KEYS_PER_ACCOUNT (issue 29, finding 9)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { MAX_KEYS_PER_ACCOUNT: "3" } });
  });
  afterAll(async () => t.close());

  it("the fourth unrevoked sub-key is 409; revoking one makes room; other accounts are apart", async () => {
    const root = await t.setup();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createSubKey(t.app, root.apiKey, { name: `k${i}`, scopes: ["read"] })).id);
    const fourth = await callWith(t.app, root.apiKey, "POST", "/v1/keys", { name: "k3", scopes: ["read"] });
    expect(fourth).toEqual({
      status: 409,
      body: {
        detail:
          "this account already holds the maximum of 3 sub-keys (MAX_KEYS_PER_ACCOUNT); revoke one first",
        code: "keys.key_limit",
      },
    });
    // Parallel attempts at the cap: none passes.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        callWith(t.app, root.apiKey, "POST", "/v1/keys", { name: `b${i}`, scopes: ["read"] }),
      ),
    );
    expect(burst.every((r) => r.status === 409)).toBe(true);
    expect((await callWith(t.app, root.apiKey, "DELETE", `/v1/keys/${ids[0]}`)).status).toBe(200);
    expect(
      (await callWith(t.app, root.apiKey, "POST", "/v1/keys", { name: "k4", scopes: ["read"] })).status,
    ).toBe(201);
    const other = await t.setup();
    expect(
      (await callWith(t.app, other.apiKey, "POST", "/v1/keys", { name: "x", scopes: ["read"] })).status,
    ).toBe(201);
  });
});
