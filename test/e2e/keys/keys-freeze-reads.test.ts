/**
 * Issue 30 over HTTP (no chain), on SQLite and PostgreSQL: the activity log names the key a freeze, unfreeze,
 * policy change or revocation acted on (filterable with ?target_key_id=), and a frozen key still reads what it
 * holds while its writes are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import { callWith, createSubKey, expectRefusal } from "../../helpers/security.js";

const engines = [
  { name: "sqlite", url: undefined as string | undefined },
  ...(TEST_DATABASE_URL !== undefined ? [{ name: "postgres", url: TEST_DATABASE_URL }] : []),
];

describe.each(engines)("freeze: target key and reads ($name)", ({ url }) => {
  let t: TestApp;
  const schema = freshSchemaName("frz");
  beforeAll(async () => {
    t = await buildTestApp(url === undefined ? {} : { databaseUrl: url, pgSchema: schema });
  });
  afterAll(async () => {
    await t.close();
    if (url !== undefined) await dropSchema(url, schema);
  });

  it("records which key /v1/keys/:id/freeze and the other key routes acted on", async () => {
    const root = await t.setup();
    const a = await createSubKey(t.app, root.apiKey, { name: "a", scopes: ["read"] });
    const b = await createSubKey(t.app, root.apiKey, { name: "b", scopes: ["read"] });
    expect((await callWith(t.app, root.apiKey, "POST", `/v1/keys/${a.id}/freeze`)).status).toBe(200);
    expect((await callWith(t.app, root.apiKey, "POST", `/v1/keys/${b.id}/freeze`)).status).toBe(200);
    expect((await callWith(t.app, root.apiKey, "POST", `/v1/keys/${a.id}/unfreeze`)).status).toBe(200);
    expect((await callWith(t.app, root.apiKey, "DELETE", `/v1/keys/${b.id}`)).status).toBe(200);
    const log = await callWith(t.app, root.apiKey, "GET", "/v1/activity");
    const rows = (log.body.activity as { route: string; target_key_id: number | null }[]).map((r) => [
      r.route,
      r.target_key_id,
    ]);
    expect(rows.slice(0, 4)).toEqual([
      ["/v1/keys/:id", b.id],
      ["/v1/keys/:id/unfreeze", a.id],
      ["/v1/keys/:id/freeze", b.id],
      ["/v1/keys/:id/freeze", a.id],
    ]);
    // Key creation acts on no existing key.
    expect(rows.filter(([route]) => route === "/v1/keys").map(([, target]) => target)).toEqual([null, null]);
    const onA = await callWith(t.app, root.apiKey, "GET", `/v1/activity?target_key_id=${a.id}`);
    expect((onA.body.activity as { route: string }[]).map((r) => r.route)).toEqual([
      "/v1/keys/:id/unfreeze",
      "/v1/keys/:id/freeze",
    ]);
    const bad = await callWith(t.app, root.apiKey, "GET", "/v1/activity?target_key_id=x");
    expect(bad).toEqual({
      status: 400,
      body: { detail: "target_key_id must be a positive integer", code: "keys.activity_target_key_id" },
    });
  });

  it("lets a frozen key read what it holds and refuses its writes", async () => {
    const root = await t.setup();
    const k = await createSubKey(t.app, root.apiKey, { name: "w", scopes: ["read", "wallets"] });
    await callWith(t.app, root.apiKey, "POST", `/v1/keys/${k.id}/freeze`);
    const list = await callWith(t.app, k.apiKey, "GET", "/v1/wallets");
    expect(list.status).toBe(200);
    expect((list.body as unknown as { public_key: string }[]).map((w) => w.public_key)).toEqual([
      root.wallet,
    ]);
    expect((await callWith(t.app, k.apiKey, "GET", "/v1/executions")).status).toBe(200);
    expectRefusal(await callWith(t.app, k.apiKey, "POST", "/v1/wallets", {}), 403, "frozen", "create");
    // The account freeze: reads open for every key, writes refused (the root key's too).
    await callWith(t.app, root.apiKey, "POST", "/v1/account/freeze");
    expect((await callWith(t.app, root.apiKey, "GET", "/v1/keys")).status).toBe(200);
    expectRefusal(await callWith(t.app, root.apiKey, "POST", "/v1/wallets", {}), 403, "frozen", "root");
    await callWith(t.app, root.apiKey, "POST", "/v1/account/unfreeze");
  });
});
