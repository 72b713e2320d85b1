/** Wallet endpoints: every row of the spec's state table, bad input, and the default invariant over HTTP. */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectWallet } from "../../../src/domain/wallets/wallets.js";
import { ApiError } from "../../../src/core/errors.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";

interface Wallet {
  id: number;
  public_key: string;
  status: string;
  is_default: boolean;
  created_at: string;
}

const ISO_NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;

function engineSuite(engine: string, make: () => Promise<TestApp>, cleanup: () => Promise<void>): void {
  describe(`wallets on ${engine}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await make();
    });
    afterAll(async () => {
      await t?.close();
      await cleanup();
    });

    const req = (key: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: { "x-api-key": key },
        ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
      });
    const list = async (key: string) => (await req(key, "GET", "/v1/wallets")).json<Wallet[]>();
    const defaults = async (key: string) =>
      (await list(key)).filter((w) => w.is_default).map((w) => w.public_key);

    it("(none) → setup → active, default", async () => {
      const s = await t.setup();
      const ws = await list(s.apiKey);
      expect(ws).toHaveLength(1);
      expect(ws[0]).toMatchObject({ public_key: s.wallet, status: "active", is_default: true });
      expect(ws[0]?.created_at).toMatch(ISO_NO_ZONE);
      expect(Object.keys(ws[0] as object).sort()).toEqual([
        "created_at",
        "id",
        "is_default",
        "public_key",
        "status",
      ]);
    });

    it("(none) → create → active, not default unless set_default; secret returned once", async () => {
      const s = await t.setup();
      const res = await req(s.apiKey, "POST", "/v1/wallets", {});
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const w = res.json<Wallet & { private_key_base58: string; private_key_format: string }>();
      expect(w.is_default).toBe(false);
      expect(w.status).toBe("active");
      expect(w.created_at).toMatch(ISO_NO_ZONE);
      expect(w.private_key_format).toBe("base58_64_byte_secret_key");
      const kp = Keypair.fromSecretKey(bs58.decode(w.private_key_base58));
      expect(kp.publicKey.toBase58()).toBe(w.public_key);
      // the list never shows the secret
      expect(JSON.stringify(await list(s.apiKey))).not.toContain(w.private_key_base58);
      // the stored copy decrypts to the same key
      const rec = await t.store.findWallet(
        (await t.store.findApiKeyByHash(t.vault.hashApiKey(s.apiKey)))!.id,
        w.public_key,
      );
      expect(bs58.encode(t.vault.decryptSecret(rec!))).toBe(w.private_key_base58);

      const noBody = await t.app.inject({
        method: "POST",
        url: "/v1/wallets",
        headers: { "x-api-key": s.apiKey },
      });
      expect(noBody.statusCode).toBe(200);
      expect(noBody.json<Wallet>().is_default).toBe(false);

      const d = await req(s.apiKey, "POST", "/v1/wallets", { set_default: true });
      expect(d.json<Wallet>().is_default).toBe(true);
      expect(await defaults(s.apiKey)).toEqual([d.json<Wallet>().public_key]);
    });

    it("(none) → import (64-byte key or 32-byte seed) → active; default only with set_default", async () => {
      const s = await t.setup();
      const kp = Keypair.generate();
      const r = await req(s.apiKey, "POST", "/v1/wallets/import", {
        private_key_base58: bs58.encode(kp.secretKey),
      });
      expect(r.statusCode).toBe(200);
      const w = r.json<Wallet>();
      expect(w).toMatchObject({ public_key: kp.publicKey.toBase58(), is_default: false, status: "active" });
      expect(Object.keys(w)).not.toContain("private_key_base58");

      const seedKp = Keypair.generate();
      const seed = seedKp.secretKey.slice(0, 32);
      const r2 = await req(s.apiKey, "POST", "/v1/wallets/import", {
        private_key_base58: bs58.encode(seed),
        set_default: true,
      });
      expect(r2.statusCode).toBe(200);
      expect(r2.json<Wallet>()).toMatchObject({ public_key: seedKp.publicKey.toBase58(), is_default: true });
      expect(await defaults(s.apiKey)).toEqual([seedKp.publicKey.toBase58()]);

      const dup = await req(s.apiKey, "POST", "/v1/wallets/import", {
        private_key_base58: bs58.encode(kp.secretKey),
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toEqual({
        code: "wallets.already_linked",
        detail: "wallet is already linked to this API key",
      });
      // another key may import the same wallet
      const other = await t.setup();
      const again = await req(other.apiKey, "POST", "/v1/wallets/import", {
        private_key_base58: bs58.encode(kp.secretKey),
      });
      expect(again.statusCode).toBe(200);
    });

    it("import rejects bad input with a 400 that never echoes the secret", async () => {
      const s = await t.setup();
      const kp = Keypair.generate();
      const mismatched = new Uint8Array(64);
      mismatched.set(kp.secretKey.slice(0, 32), 0);
      mismatched.set(Keypair.generate().publicKey.toBytes(), 32);
      const cases: [unknown, number, string][] = [
        [{}, 400, "private_key_base58"],
        [{ private_key_base58: 123 }, 400, "private_key_base58 must be a string"],
        [{ private_key_base58: "0OIl-not-base58" }, 400, "private_key_base58 is not valid base58"],
        [
          { private_key_base58: bs58.encode(new Uint8Array(48).fill(7)) },
          400,
          "64-byte secret key or a 32-byte seed",
        ],
        [{ private_key_base58: bs58.encode(mismatched) }, 400, "does not match"],
        [
          { private_key_base58: bs58.encode(kp.secretKey), set_default: "yes" },
          400,
          "set_default must be a boolean",
        ],
        [
          { private_key_base58: bs58.encode(kp.secretKey), set_default: "true" },
          400,
          "set_default must be a boolean",
        ],
        [[1, 2], 400, "object"],
      ];
      for (const [payload, status, text] of cases) {
        const r = await req(s.apiKey, "POST", "/v1/wallets/import", payload);
        expect(r.statusCode, JSON.stringify(payload)).toBe(status);
        const body = r.json<{ detail: string }>();
        expect(body.detail).toContain(text);
        const secret = (payload as { private_key_base58?: unknown }).private_key_base58;
        if (typeof secret === "string") expect(r.body).not.toContain(secret);
      }
      expect(await list(s.apiKey)).toHaveLength(1);
    });

    it("active non-default → set default → default; previous default loses the flag", async () => {
      const s = await t.setup();
      const b = (await req(s.apiKey, "POST", "/v1/wallets", {})).json<Wallet>();
      const r = await req(s.apiKey, "PUT", `/v1/wallets/${b.public_key}/default`);
      expect(r.statusCode).toBe(200);
      expect(r.json<Wallet>()).toMatchObject({ public_key: b.public_key, is_default: true });
      expect(await defaults(s.apiKey)).toEqual([b.public_key]);
      // idempotent on the current default
      expect(
        (await req(s.apiKey, "PUT", `/v1/wallets/${b.public_key}/default`)).json<Wallet>().is_default,
      ).toBe(true);
      expect(await defaults(s.apiKey)).toEqual([b.public_key]);
    });

    it("set default / delink of an unknown or foreign wallet → 404 wallet not found", async () => {
      const s = await t.setup();
      const other = await t.setup();
      for (const target of [other.wallet, Keypair.generate().publicKey.toBase58(), "not-a-key"]) {
        const put = await req(s.apiKey, "PUT", `/v1/wallets/${target}/default`);
        expect(put.statusCode).toBe(404);
        expect(put.json()).toEqual({ code: "wallets.not_found", detail: "wallet not found" });
        const del = await req(s.apiKey, "DELETE", `/v1/wallets/${target}`);
        expect(del.statusCode).toBe(404);
        expect(del.json()).toEqual({ detail: "wallet not found", code: "wallets.not_found" });
      }
      expect(await defaults(other.apiKey)).toEqual([other.wallet]);
    });

    it("active → delink → removed; history deleted; oldest remaining becomes default; last wallet may go", async () => {
      const s = await t.setup();
      const keyId = (await t.store.findApiKeyByHash(t.vault.hashApiKey(s.apiKey)))!.id;
      const b = (await req(s.apiKey, "POST", "/v1/wallets", {})).json<Wallet>();
      const c = (await req(s.apiKey, "POST", "/v1/wallets", { set_default: true })).json<Wallet>();
      for (const wallet of [c.public_key, b.public_key]) {
        await t.store.insertExecution({
          id: `${engine}-${wallet}`,
          apiKeyId: keyId,
          kind: "transfer",
          wallet,
          wallets: [wallet],
          signatures: ["sig"],
          bundleId: null,
          status: "confirmed",
          confirmationStatus: "confirmed",
          request: {},
          response: null,
          error: null,
          timings: null,
        });
      }
      const del = await req(s.apiKey, "DELETE", `/v1/wallets/${c.public_key}`);
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ ok: true });
      expect((await list(s.apiKey)).map((w) => w.public_key)).toEqual([s.wallet, b.public_key]);
      expect(await defaults(s.apiKey)).toEqual([s.wallet]); // oldest remaining
      expect((await t.store.listExecutions({ apiKeyId: keyId, limit: 10 })).map((e) => e.wallet)).toEqual([
        b.public_key,
      ]);
      expect(await t.store.findWallet(keyId, c.public_key)).toBeUndefined();

      // delinking a non-default keeps the default
      expect((await req(s.apiKey, "DELETE", `/v1/wallets/${b.public_key}`)).statusCode).toBe(200);
      expect(await defaults(s.apiKey)).toEqual([s.wallet]);
      // the last wallet may go; the key then has none and executions get a clear 400
      expect((await req(s.apiKey, "DELETE", `/v1/wallets/${s.wallet}`)).statusCode).toBe(200);
      expect(await list(s.apiKey)).toEqual([]);
      const err = await selectWallet(t.store, keyId).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
      // a new wallet on a key with none becomes its default
      const n = (await req(s.apiKey, "POST", "/v1/wallets", {})).json<Wallet>();
      expect(n.is_default).toBe(true);
    });

    it("selectWallet: default when omitted, named own wallet, foreign → 404 (overridable)", async () => {
      const s = await t.setup();
      const other = await t.setup();
      const keyId = (await t.store.findApiKeyByHash(t.vault.hashApiKey(s.apiKey)))!.id;
      expect((await selectWallet(t.store, keyId)).publicKey).toBe(s.wallet);
      expect((await selectWallet(t.store, keyId, s.wallet)).publicKey).toBe(s.wallet);
      await expect(selectWallet(t.store, keyId, other.wallet)).rejects.toMatchObject({
        status: 404,
        detail: "wallet not found",
      });
      await expect(
        selectWallet(t.store, keyId, other.wallet, {
          notFoundError: () => new ApiError(400, "managed wallet selection error"),
        }),
      ).rejects.toMatchObject({ status: 400, detail: "managed wallet selection error" });
    });

    it("create rejects wrong types and malformed bodies with 4xx, never 500", async () => {
      const s = await t.setup();
      const h = { "x-api-key": s.apiKey };
      const cases: { payload: string; type?: string; status: number; detail: string }[] = [
        { payload: "{not json", status: 400, detail: "request body is not valid JSON" },
        { payload: '{"set_default": 1}', status: 400, detail: "set_default must be a boolean" },
        { payload: '{"set_default": null}', status: 400, detail: "set_default must be a boolean" },
        {
          payload: '"string"',
          status: 400,
          detail: "request body must be a JSON object" /* issue 23: one text on every route */,
        },
        {
          payload: "set_default=true",
          type: "application/x-www-form-urlencoded",
          status: 415,
          detail: "content-type must be application/json",
        },
        {
          payload: "hello",
          type: "text/plain",
          status: 415,
          detail: "content-type must be application/json",
        },
        {
          payload: JSON.stringify({ pad: "x".repeat(70 * 1024) }),
          status: 413,
          detail: "request body exceeds the 64 KiB limit",
        },
      ];
      for (const c of cases) {
        const r = await t.app.inject({
          method: "POST",
          url: "/v1/wallets",
          headers: { ...h, "content-type": c.type ?? "application/json" },
          payload: c.payload,
        });
        expect(r.statusCode, c.payload.slice(0, 40)).toBe(c.status);
        expect(r.json()).toEqual({ code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/), detail: c.detail });
      }
      expect(await list(s.apiKey)).toHaveLength(1);
    });

    it("keeps exactly one default under 20 concurrent set-default and delink calls (HTTP)", async () => {
      const s = await t.setup();
      const ws = [s.wallet];
      for (let i = 0; i < 11; i++)
        ws.push((await req(s.apiKey, "POST", "/v1/wallets", {})).json<Wallet>().public_key);
      const calls = Array.from({ length: 20 }, (_, i) => {
        const target = ws[(i * 5) % ws.length] as string;
        return i % 4 === 1
          ? req(s.apiKey, "DELETE", `/v1/wallets/${target}`)
          : req(s.apiKey, "PUT", `/v1/wallets/${target}/default`);
      });
      const codes = (await Promise.all(calls)).map((r) => r.statusCode);
      expect(codes.every((c) => c === 200 || c === 404)).toBe(true);
      const remaining = await list(s.apiKey);
      expect(remaining.length).toBeGreaterThan(0);
      expect(remaining.filter((w) => w.is_default)).toHaveLength(1);
    });
  });
}

engineSuite(
  "sqlite",
  () => buildTestApp(),
  async () => {},
);

const pgUrl = TEST_DATABASE_URL;
if (pgUrl !== undefined) {
  const schema = freshSchemaName("wallets");
  engineSuite(
    "postgres",
    () => buildTestApp({ databaseUrl: pgUrl, pgSchema: schema }),
    () => dropSchema(pgUrl, schema),
  );
}
