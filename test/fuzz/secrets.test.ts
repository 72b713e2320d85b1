/** The fuzzer's secrets scan finds a secret in each form a log line could carry it (its positive control). */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { SecretRegistry } from "./secrets.js";

describe("SecretRegistry", () => {
  const kp = Keypair.generate();
  const secret = kp.secretKey;
  const reg = new SecretRegistry();
  reg.addWalletSecret(bs58.encode(secret), "wallet secret");
  reg.add("lt_" + bs58.encode(Buffer.alloc(32, 7)), "API key");

  it.each([
    ["base58 in a JSON field", `{"msg":"x","k":"${bs58.encode(secret)}"}`],
    ["base58 inside a longer token", `{"url":"/v1/wallets/abc${bs58.encode(secret)}def"}`],
    ["hex", `{"k":"${Buffer.from(secret).toString("hex")}"}`],
    ["base64", `{"k":"${Buffer.from(secret).toString("base64")}"}`],
    ["the private half alone", `{"k":"${bs58.encode(secret.subarray(0, 32))}"}`],
    ["a byte list with spaces", `{"k":[${Array.from(secret).join(", ")}]}`],
    ["an API key", `{"headers":{"x-api-key":"lt_${bs58.encode(Buffer.alloc(32, 7))}"}}`],
  ])("finds %s", (_name, line) => {
    expect(reg.scan([line])).toHaveLength(1);
  });

  it("does not flag the public key, other keys or ordinary lines", () => {
    const lines = [
      `{"wallet":"${kp.publicKey.toBase58()}"}`,
      `{"k":"${bs58.encode(Keypair.generate().secretKey)}"}`,
      '{"level":30,"msg":"request completed","reqId":"5f0c3b8e-0000-4000-8000-000000000000"}',
    ];
    expect(reg.scan(lines)).toEqual([]);
  });
});
