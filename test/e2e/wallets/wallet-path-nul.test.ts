/**
 * Found by the fuzzer on PostgreSQL (issue 9.5): a wallet path parameter holding a NUL byte reached the
 * database, which refuses NUL in text with an error, and answered 500. A path that is not an address is
 * now "wallet not found" before any query, on SQLite and on PostgreSQL alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOUNDATION } from "../../../src/core/errors.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";

const PATHS = ["%00", "%00MV", "abc%00def", "x", "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"];

function suite(name: string, build: () => Promise<TestApp>, cleanup: () => Promise<void> = async () => {}) {
  describe(name, () => {
    let t: TestApp;
    let apiKey: string;
    beforeAll(async () => {
      t = await build();
      apiKey = (await t.setup()).apiKey;
    });
    afterAll(async () => {
      await t?.close();
      await cleanup();
    });

    it.each(PATHS)("set-default and delink of %s are 404 wallet not found", async (p) => {
      for (const [method, url] of [
        ["PUT", `/v1/wallets/${p}/default`],
        ["DELETE", `/v1/wallets/${p}`],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: { "x-api-key": apiKey } });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ code: "wallets.not_found", detail: FOUNDATION.walletNotFound });
      }
    });
  });
}

suite("wallet paths that are not addresses (SQLite)", () => buildTestApp());

const schema = freshSchemaName("nul");
if (TEST_DATABASE_URL !== undefined)
  suite(
    "wallet paths that are not addresses (PostgreSQL)",
    () => buildTestApp({ databaseUrl: TEST_DATABASE_URL!, pgSchema: schema }),
    () => dropSchema(TEST_DATABASE_URL!, schema),
  );
