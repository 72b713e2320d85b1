/**
 * Issue 19 over HTTP (no chain): sub-keys (create, list, expiry, revoke), policies (strict validation, the
 * rules decidable from the body, the refusal body), the activity log (rows, cursor, filters), on SQLite and
 * PostgreSQL; revocation seen at once by a second app on the same database.
 */
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import { callWith, createSubKey, expectRefusal } from "../../helpers/security.js";

const engines = [
  { name: "sqlite", url: undefined as string | undefined },
  ...(TEST_DATABASE_URL !== undefined ? [{ name: "postgres", url: TEST_DATABASE_URL }] : []),
];

describe.each(engines)("keys, policies and activity ($name)", ({ url }) => {
  let t: TestApp;
  let now = new Date("2026-11-24T08:00:00.000Z");
  const schema = freshSchemaName("keys");
  beforeAll(async () => {
    t = await buildTestApp({
      clock: () => now,
      ...(url === undefined ? {} : { databaseUrl: url, pgSchema: schema }),
    });
  });
  afterAll(async () => {
    await t.close();
    if (url !== undefined) await dropSchema(url, schema);
  });
  const mint = Keypair.generate().publicKey.toBase58();
  const ext = Keypair.generate().publicKey.toBase58();

  it("creates a sub-key (secret once), lists keys without secrets, root marked, revoked gone", async () => {
    const root = await t.setup();
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/keys",
      headers: { "x-api-key": root.apiKey },
      payload: { name: "bot", scopes: ["trade", "read"], wallets: [root.wallet] },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<Record<string, unknown>>();
    expect(created).toMatchObject({
      name: "bot",
      scopes: ["read", "trade"],
      wallets: [root.wallet],
      expires_at: null,
      root: false,
      frozen: false,
      policy: {},
    });
    expect(String(created.api_key)).toMatch(/^lt_/);
    const list = await callWith(t.app, root.apiKey, "GET", "/v1/keys");
    expect(list.status).toBe(200);
    const keys = list.body.keys as Record<string, unknown>[];
    expect(keys.map((k) => [k.name, k.root])).toEqual([
      ["root", true],
      ["bot", false],
    ]);
    expect(JSON.stringify(list.body)).not.toContain(String(created.api_key));
    expect(keys[0]?.scopes).toEqual(["read", "trade", "create", "transfer", "wallets", "keys", "build"]);
    // The sub-key works for its scopes; revoked, it is gone from the list and refused.
    const sub = String(created.api_key);
    expect((await callWith(t.app, sub, "GET", "/v1/wallets")).status).toBe(200);
    expect((await callWith(t.app, root.apiKey, "DELETE", `/v1/keys/${String(created.id)}`)).status).toBe(200);
    expect(await callWith(t.app, sub, "GET", "/v1/wallets")).toEqual({
      status: 401,
      body: { detail: "API key revoked", code: "auth.key_revoked" },
    });
    const after = await callWith(t.app, root.apiKey, "GET", "/v1/keys");
    expect((after.body.keys as unknown[]).length).toBe(1);
    // The root key cannot be revoked; another account's key is not found.
    const rootId = (keys[0] as { id: number }).id;
    expect((await callWith(t.app, root.apiKey, "DELETE", `/v1/keys/${rootId}`)).status).toBe(400);
    const other = await t.setup();
    const foreign = await createSubKey(t.app, other.apiKey, { name: "x", scopes: ["read"] });
    expect(await callWith(t.app, root.apiKey, "DELETE", `/v1/keys/${foreign.id}`)).toEqual({
      status: 404,
      body: { detail: "key not found", code: "keys.key_not_found" },
    });
  });

  it("refuses bad key bodies with a 400 detail", async () => {
    const root = await t.setup();
    const cases: [unknown, string][] = [
      [{ scopes: ["read"] }, "name is required: a string of 1 to 64 characters"],
      [
        { name: "a", scopes: [] },
        "scopes must be a non-empty array of: read, trade, create, transfer, wallets, keys, build",
      ],
      [
        { name: "a", scopes: ["admin"] },
        "scopes must be a non-empty array of: read, trade, create, transfer, wallets, keys, build",
      ],
      [{ name: "a", scopes: ["read"], wallets: [ext] }, `wallets: ${ext} is not a wallet of this account`],
      [
        { name: "a", scopes: ["read"], expires_at: "tomorrow" },
        "expires_at must be an ISO 8601 date-time in the future",
      ],
      [
        { name: "a", scopes: ["read"], expires_at: "2020-01-01T00:00:00Z" },
        "expires_at must be an ISO 8601 date-time in the future",
      ],
      [{ name: "a", scopes: ["read"], admin: true }, "unknown field: admin"],
    ];
    for (const [payload, detail] of cases) {
      const r = await callWith(t.app, root.apiKey, "POST", "/v1/keys", payload);
      expect(r, JSON.stringify(payload)).toEqual({
        status: 400,
        body: { detail, code: expect.stringMatching(/^keys\./) },
      });
    }
  });

  it("an expired key gets 401", async () => {
    const root = await t.setup();
    const k = await createSubKey(t.app, root.apiKey, {
      name: "short",
      scopes: ["read"],
      expires_at: "2026-11-24T09:00:00Z",
    });
    expect((await callWith(t.app, k.apiKey, "GET", "/v1/wallets")).status).toBe(200);
    const saved = now;
    now = new Date("2026-11-24T09:00:00.001Z");
    expect(await callWith(t.app, k.apiKey, "GET", "/v1/wallets")).toEqual({
      status: 401,
      body: { detail: "API key expired", code: "auth.key_expired" },
    });
    now = saved;
  });

  it("PUT policy: strict validation, replace, {} clears", async () => {
    const root = await t.setup();
    const k = await createSubKey(t.app, root.apiKey, { name: "p", scopes: ["trade"] });
    const put = (body: unknown) => callWith(t.app, root.apiKey, "PUT", `/v1/keys/${k.id}/policy`, body);
    const bad: [unknown, string][] = [
      [
        { max_sol_per_24h: "ten" },
        "max_sol_per_24h must be a positive SOL amount (number or decimal string, at most 9 decimals)",
      ],
      [
        { max_sol_per_24h: "0.0000000001" },
        "max_sol_per_24h must be a positive SOL amount (number or decimal string, at most 9 decimals)",
      ],
      [
        { max_sol_per_24h: -1 },
        "max_sol_per_24h must be a positive SOL amount (number or decimal string, at most 9 decimals)",
      ],
      [{ max_tip_lamports: 1.5 }, "max_tip_lamports must be a non-negative integer number of lamports"],
      [{ venues: ["dex"] }, "venues must be a non-empty array of: bonding_curve, launchswap"],
      [{ mints_allow: ["nope"] }, "mints_allow[0] is not a valid base58 address"],
      [{ mints_allow: [mint], mints_deny: [mint] }, "mints_allow and mints_deny must not share a mint"],
      [
        { max_sol_per_execution: 2, max_sol_per_24h: 1 },
        "max_sol_per_execution must not exceed max_sol_per_24h",
      ],
      [{ max_sol: 1 }, "unknown field: max_sol"],
    ];
    for (const [body, detail] of bad)
      expect(await put(body), JSON.stringify(body)).toEqual({
        status: 400,
        body: { detail, code: expect.stringMatching(/^keys\./) },
      });
    const ok = await put({
      max_sol_per_24h: 5,
      max_sol_per_execution: "0.50",
      venues: ["bonding_curve"],
      max_tip_lamports: "100000",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.policy).toEqual({
      max_sol_per_execution: "0.5",
      max_sol_per_24h: "5",
      max_tip_lamports: "100000",
      venues: ["bonding_curve"],
    });
    expect((await put({ mints_deny: [mint] })).body.policy).toEqual({ mints_deny: [mint] });
    expect((await put({})).body.policy).toEqual({});
  });

  it("refuses by policy before any chain access, with the rule in the body", async () => {
    const root = await t.setup();
    const k = await createSubKey(t.app, root.apiKey, { name: "bot", scopes: ["trade", "transfer"] });
    await callWith(t.app, root.apiKey, "PUT", `/v1/keys/${k.id}/policy`, {
      max_sol_per_execution: "0.5",
      max_sol_per_24h: "10",
      mints_deny: [mint],
      destinations_allow: [],
      max_tip_lamports: 0,
    });
    const trade = (body: Record<string, unknown>) =>
      callWith(t.app, k.apiKey, "POST", "/v1/trades/execute", { action: "buy", amount: "0.1", ...body });
    expect(await trade({ mint })).toEqual({
      status: 403,
      body: {
        rule: "mints_deny",
        detail: `policy mints_deny: mint ${mint} is denied for this key`,
        code: "keys.policy_refused",
      },
    });
    const other = Keypair.generate().publicKey.toBase58();
    expect(await trade({ mint: other, amount: "0.6" })).toEqual({
      status: 403,
      body: {
        rule: "max_sol_per_execution",
        detail: "policy max_sol_per_execution: this trade needs 0.60, at most 0.5 SOL per execution",
        code: "keys.policy_refused",
      },
    });
    // Transfers to an address outside the account and its allow-list are refused; own wallets are allowed.
    const out = await callWith(t.app, k.apiKey, "POST", "/v1/sol/transfer/execute", {
      destination_wallet: ext,
      amount: "0.1",
    });
    expectRefusal(out, 403, "destinations_allow", "transfer");
    const created = await callWith(t.app, root.apiKey, "POST", "/v1/wallets", {});
    const own = await callWith(t.app, k.apiKey, "POST", "/v1/sol/transfer/execute", {
      destination_wallet: created.body.public_key,
      amount: "0.1",
    });
    expect(own.status).toBe(503); // past every policy rule; this app has no chain
  });

  it("writes one activity row per change or refusal; cursor pagination and filters", async () => {
    const root = await t.setup();
    const k = await createSubKey(t.app, root.apiKey, { name: "reader", scopes: ["read"] });
    await callWith(t.app, k.apiKey, "POST", "/v1/wallets", {}); // refused: scope
    await callWith(t.app, k.apiKey, "GET", "/v1/wallets"); // a read: not logged
    for (let i = 0; i < 3; i++) await callWith(t.app, root.apiKey, "POST", "/v1/wallets", {});
    const page1 = await callWith(t.app, root.apiKey, "GET", "/v1/activity?limit=2");
    expect(page1.status).toBe(200);
    const rows1 = page1.body.activity as Record<string, unknown>[];
    expect(rows1).toHaveLength(2);
    expect(rows1[0]).toMatchObject({
      key_name: "root",
      method: "POST",
      route: "/v1/wallets",
      status: 200,
      rule: null,
    });
    expect((rows1[0]?.wallets as string[]).length).toBe(1);
    expect(typeof page1.body.next_cursor).toBe("string");
    const page2 = await callWith(
      t.app,
      root.apiKey,
      "GET",
      `/v1/activity?limit=10&after=${String(page1.body.next_cursor)}`,
    );
    const rows2 = page2.body.activity as Record<string, unknown>[];
    expect(page2.body.next_cursor).toBeNull();
    // Key creation, the refused call, and the rest of the wallet creations; newest first, no overlap.
    expect(rows2.map((r) => [r.route, r.status, r.rule])).toEqual([
      ["/v1/wallets", 200, null],
      ["/v1/wallets", 403, "scope"],
      ["/v1/keys", 201, null],
    ]);
    expect(rows2[1]).toMatchObject({ key_id: k.id, key_name: "reader" });
    const refused = await callWith(t.app, root.apiKey, "GET", "/v1/activity?rule=scope");
    expect((refused.body.activity as unknown[]).length).toBe(1);
    const byKey = await callWith(t.app, root.apiKey, "GET", `/v1/activity?key_id=${k.id}`);
    expect((byKey.body.activity as unknown[]).length).toBe(1);
    expect(await callWith(t.app, root.apiKey, "GET", "/v1/activity?limit=0")).toEqual({
      status: 400,
      body: { detail: "limit must be an integer from 1 to 200", code: "execution.history_limit" },
    });
    // Never a secret in the log.
    const all = await callWith(t.app, root.apiKey, "GET", "/v1/activity?limit=200");
    expect(JSON.stringify(all.body)).not.toContain(k.apiKey);
    expect(JSON.stringify(all.body)).not.toContain(root.apiKey);
  });

  it("a second app on the same database sees a revocation and a freeze at once", async () => {
    const second = await buildTestApp({ store: t.store, clock: () => now });
    try {
      const root = await t.setup();
      const k = await createSubKey(t.app, root.apiKey, { name: "x", scopes: ["read"] });
      expect((await callWith(second.app, k.apiKey, "GET", "/v1/wallets")).status).toBe(200);
      await callWith(t.app, root.apiKey, "POST", "/v1/account/freeze");
      // Issue 30: the freeze stops writes (reads stay open).
      expectRefusal(
        await callWith(second.app, k.apiKey, "POST", "/v1/wallets", {}),
        403,
        "frozen",
        "account",
      );
      expect((await callWith(second.app, k.apiKey, "GET", "/v1/wallets")).status).toBe(200);
      await callWith(t.app, root.apiKey, "POST", "/v1/account/unfreeze");
      await callWith(t.app, root.apiKey, "DELETE", `/v1/keys/${k.id}`);
      expect((await callWith(second.app, k.apiKey, "GET", "/v1/wallets")).status).toBe(401);
    } finally {
      await second.app.close();
    }
  });
});
