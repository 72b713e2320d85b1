/**
 * Issue 29 on PostgreSQL (the shared counters and the activity log of a real deployment): two apps on one
 * database share an account's budget across its keys, and a refusal flood through both is sampled once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { createSubKey } from "../helpers/security.js";

const env = { RATE_LIMIT_WINDOW_MS: "3600000", RATE_LIMIT_READS: "10", RATE_LIMIT_REFUSALS: "8" };

describe.skipIf(TEST_DATABASE_URL === undefined)("issue 29 budgets on PostgreSQL, two processes", () => {
  const schema = freshSchemaName("budgets29");
  let stores: Store[];
  let apps: TestApp[];
  beforeAll(async () => {
    stores = [
      await openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema }),
      await openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema }),
    ];
    apps = [await buildTestApp({ env, store: stores[0]! }), await buildTestApp({ env, store: stores[1]! })];
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const s of stores) await s.close();
    await dropSchema(TEST_DATABASE_URL!, schema);
  });

  it("sub-keys on two apps share the account's reads; refusals are throttled and sampled", async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const { apiKey: root } = await a.setup();
    const subs = [];
    for (let i = 0; i < 4; i++)
      subs.push(await createSubKey(a.app, root, { name: `r${i}`, scopes: ["read"] }));
    const codes: number[] = [];
    for (let i = 0; i < 16; i++) {
      const app = i % 2 === 0 ? a : b;
      const res = await app.app.inject({
        method: "GET",
        url: "/v1/wallets",
        headers: { "x-api-key": subs[i % 4]!.apiKey },
      });
      codes.push(res.statusCode);
    }
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(6);

    const refusedCodes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const app = i % 2 === 0 ? a : b;
      const res = await app.app.inject({
        method: "POST",
        url: "/v1/wallets",
        headers: { "x-api-key": subs[0]!.apiKey },
        payload: {},
      });
      refusedCodes.push(res.statusCode);
    }
    expect(refusedCodes).toEqual([...Array(8).fill(403), ...Array(4).fill(429)]);
    const key = (await stores[0]!.findKeyByHash(a.vault.hashApiKey(root)))!;
    const rows = await stores[0]!.listActivity({ accountId: key.accountId, limit: 100, keyId: subs[0]!.id });
    expect(rows.map((r) => r.refusals)).toEqual([4, 2, 1, 1]);
    // Nothing was created by the refused writes.
    expect((await stores[1]!.listWallets(key.accountId)).length).toBe(1);
  });
});
