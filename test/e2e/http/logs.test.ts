/** No secret (API key, wallet secret, master key) appears in any log line of setup, create and import. */
import { Writable } from "node:stream";
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/runtime/logger.js";
import { buildTestApp, TEST_MASTER_KEY_HEX } from "../../helpers/app.js";

/** A logger at `level` whose lines are collected in `lines`. */
function captureLogs(level: string): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  return { lines, logger: createLogger(level, sink) };
}

describe("logs", () => {
  it("carry no secret during setup, create, import and failures", async () => {
    const { lines, logger } = captureLogs("trace");
    const t = await buildTestApp({ logger });
    const secrets: string[] = [
      TEST_MASTER_KEY_HEX,
      Buffer.from(TEST_MASTER_KEY_HEX, "hex").toString("base64"),
    ];
    try {
      const s = await t.setup();
      secrets.push(s.apiKey, s.walletSecret);
      const h = { "x-api-key": s.apiKey };
      const created = await t.app.inject({
        method: "POST",
        url: "/v1/wallets",
        headers: h,
        payload: { set_default: true },
      });
      secrets.push(created.json<{ private_key_base58: string }>().private_key_base58);
      const imported = bs58.encode(Keypair.generate().secretKey);
      secrets.push(imported);
      await t.app.inject({
        method: "POST",
        url: "/v1/wallets/import",
        headers: h,
        payload: { private_key_base58: imported },
      });
      // duplicate (409), wrong type (400) and malformed JSON carrying a secret
      await t.app.inject({
        method: "POST",
        url: "/v1/wallets/import",
        headers: h,
        payload: { private_key_base58: imported },
      });
      await t.app.inject({
        method: "POST",
        url: "/v1/wallets/import",
        headers: h,
        payload: { private_key_base58: imported, set_default: "x" },
      });
      await t.app.inject({
        method: "POST",
        url: "/v1/wallets/import",
        headers: { ...h, "content-type": "application/json" },
        payload: `{"private_key_base58": "${imported}"`,
      });
      // wrong key presented
      const wrongKey = "lt_" + bs58.encode(Buffer.alloc(32, 9));
      secrets.push(wrongKey);
      await t.app.inject({ method: "GET", url: "/v1/wallets", headers: { "x-api-key": wrongKey } });
      // and a 500 on a request that carries a secret
      await t.store.close();
      await t.app.inject({
        method: "POST",
        url: "/v1/wallets/import",
        headers: h,
        payload: { private_key_base58: imported },
      });
    } finally {
      await t.app.close();
    }
    expect(lines.length).toBeGreaterThan(10);
    const all = lines.join("");
    expect(all).toContain("incoming request"); // the capture works
    for (const secret of secrets) expect(all).not.toContain(secret);
  });

  it("redaction removes secret fields even if code logs them", () => {
    const { lines, logger } = captureLogs("info");
    logger.info(
      {
        req: { headers: { "x-api-key": "K1" } },
        private_key_base58: "K2",
        result: { wallet_private_key: "K3" },
        config: { masterKey: "K4", previousMasterKeys: ["K5"] },
        env: { MASTER_KEY: "K6", PREVIOUS_MASTER_KEYS: "K7" },
      },
      "x",
    );
    expect(lines.join("")).not.toMatch(/K1|K2|K3|K4|K5|K6|K7/);
  });
});
