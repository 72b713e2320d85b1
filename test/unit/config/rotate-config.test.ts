/** PREVIOUS_MASTER_KEYS: parsed by loadConfig, turned into decrypt-only keys the service's vault accepts. */
import { randomBytes } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config.js";
import {
  createVault,
  MasterKeyError,
  parseMasterKey,
  parsePreviousMasterKeys,
  verifyVault,
} from "../../../src/vault/index.js";

describe("PREVIOUS_MASTER_KEYS", () => {
  it("is a trimmed comma list, empty when unset or blank", () => {
    expect(loadConfig({}).previousMasterKeys).toEqual([]);
    expect(loadConfig({ PREVIOUS_MASTER_KEYS: " " }).previousMasterKeys).toEqual([]);
    expect(loadConfig({ PREVIOUS_MASTER_KEYS: " a , b,,c " }).previousMasterKeys).toEqual(["a", "b", "c"]);
  });

  it("accepts hex and base64 entries; a bad one is named by position without its value", () => {
    const k = randomBytes(32);
    const keys = parsePreviousMasterKeys([k.toString("hex"), k.toString("base64"), k.toString("base64url")]);
    expect(new Set(keys.map((x) => x.id)).size).toBe(1);
    expect(() => parsePreviousMasterKeys([k.toString("hex"), "secretish"])).toThrow(
      new MasterKeyError("PREVIOUS_MASTER_KEYS entry 2 must be 32 bytes as 64 hex characters or base64"),
    );
  });

  it("lets the service start and read wallets under an older key during a rotation", async () => {
    const oldKey = parseMasterKey(randomBytes(32).toString("hex"), "old");
    const newKey = parseMasterKey(randomBytes(32).toString("hex"), "new");
    const kp = Keypair.generate();
    const pk = kp.publicKey.toBase58();
    const record = { publicKey: pk, ...createVault(oldKey).encryptSecret(kp.secretKey, pk) };
    const store = { anyWallet: async () => record };

    await expect(verifyVault(createVault(newKey), store)).rejects.toThrow(MasterKeyError);
    const vault = createVault(newKey, parsePreviousMasterKeys([oldKey.key.toString("base64")]));
    await expect(verifyVault(vault, store)).resolves.toBeUndefined();
    expect(Buffer.from(vault.decryptSecret(record))).toEqual(Buffer.from(kp.secretKey));
    expect(vault.encryptSecret(kp.secretKey, pk).keyId).toBe(newKey.id);
  });
});
