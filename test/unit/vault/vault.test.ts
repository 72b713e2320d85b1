/** Vault: API keys, AES-256-GCM round trip and tamper detection, master-key loading and the start-up check. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/index.js";
import {
  createVault,
  loadMasterKey,
  MasterKeyError,
  parseMasterKey,
  SANDBOX_KEY_FILE,
  verifyVault,
} from "../../../src/vault/index.js";
import { storeKeyWithWalletOf, testVault } from "../../helpers/app.js";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "lasertrade-vault-"));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("api keys", () => {
  it("are 32 random bytes, distinct, and stored only as a hash", () => {
    const v = testVault();
    const a = v.createApiKey();
    const b = v.createApiKey();
    expect(a.plain).not.toBe(b.plain);
    expect(bs58.decode(a.plain.replace(/^lt_/, "")).length).toBe(32);
    expect(a.hash).toBe(v.hashApiKey(a.plain));
    expect(a.hash).not.toContain(a.plain);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("wallet secret encryption", () => {
  const vault = testVault();

  it("round-trips any 64-byte secret with a fresh nonce each time", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.string({ minLength: 1 }),
        (secret, pk) => {
          const a = vault.encryptSecret(secret, pk);
          const b = vault.encryptSecret(secret, pk);
          expect(a.nonce).not.toBe(b.nonce);
          expect(a.keyId).toBe(vault.keyId);
          expect(Buffer.from(vault.decryptSecret({ ...a, publicKey: pk }))).toEqual(Buffer.from(secret));
        },
      ),
      { numRuns: 50 },
    );
  });

  it("fails on tampered ciphertext, tag, nonce or wrong associated data", () => {
    const kp = Keypair.generate();
    const pk = kp.publicKey.toBase58();
    const rec = { ...vault.encryptSecret(kp.secretKey, pk), publicKey: pk };
    const flip = (b64: string) => {
      const b = Buffer.from(b64, "base64");
      b[0] = (b[0] as number) ^ 1;
      return b.toString("base64");
    };
    expect(() => vault.decryptSecret({ ...rec, ciphertext: flip(rec.ciphertext) })).toThrow();
    expect(() => vault.decryptSecret({ ...rec, tag: flip(rec.tag) })).toThrow();
    expect(() => vault.decryptSecret({ ...rec, nonce: flip(rec.nonce) })).toThrow();
    expect(() =>
      vault.decryptSecret({ ...rec, publicKey: Keypair.generate().publicKey.toBase58() }),
    ).toThrow();
    expect(() =>
      testVault("22".repeat(32)).decryptSecret({ ...rec, keyId: testVault("22".repeat(32)).keyId }),
    ).toThrow();
    expect(() => testVault("22".repeat(32)).decryptSecret(rec)).toThrow(MasterKeyError);
  });

  it("withKeypair hands a working keypair and zeroes the secret afterwards", async () => {
    const kp = Keypair.generate();
    const pk = kp.publicKey.toBase58();
    const rec = { ...vault.encryptSecret(kp.secretKey, pk), publicKey: pk };
    let seen: Keypair | undefined;
    const out = await vault.withKeypair(rec, async (k) => {
      seen = k;
      return k.publicKey.toBase58();
    });
    expect(out).toBe(pk);
    expect(seen?.secretKey.every((b) => b === 0)).toBe(true);
  });

  it("previous master keys still decrypt (rotation)", () => {
    const old = parseMasterKey("33".repeat(32), "old");
    const oldVault = createVault(old);
    const kp = Keypair.generate();
    const pk = kp.publicKey.toBase58();
    const rec = { ...oldVault.encryptSecret(kp.secretKey, pk), publicKey: pk };
    const rotated = createVault(parseMasterKey("44".repeat(32), "new"), [old]);
    expect(Buffer.from(rotated.decryptSecret(rec))).toEqual(Buffer.from(kp.secretKey));
  });
});

describe("master key", () => {
  it("accepts hex and base64 and rejects other lengths", () => {
    const hex = "ab".repeat(32);
    expect(parseMasterKey(hex, "MASTER_KEY").key).toEqual(Buffer.from(hex, "hex"));
    const b64 = Buffer.alloc(32, 5).toString("base64");
    expect(parseMasterKey(b64, "MASTER_KEY").key).toEqual(Buffer.alloc(32, 5));
    expect(() => parseMasterKey(Buffer.alloc(16).toString("base64"), "MASTER_KEY")).toThrow(/MASTER_KEY/);
    expect(() => parseMasterKey("nope!", "MASTER_KEY")).toThrow(MasterKeyError);
  });

  it("sandbox generates DATA_DIR/master.key with mode 0600 once, then reuses it", () => {
    const dir = tempDir();
    const first = loadMasterKey({
      masterKey: undefined,
      masterKeyFile: undefined,
      sandbox: true,
      dataDir: dir,
    });
    expect(first.generated).toBe(true);
    const file = join(dir, SANDBOX_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadMasterKey({
      masterKey: undefined,
      masterKeyFile: undefined,
      sandbox: true,
      dataDir: dir,
    });
    expect(again.generated).toBe(false);
    expect(again.id).toBe(first.id);
    expect(readFileSync(file, "utf8").trim()).toBe(first.key.toString("base64"));
  });

  it("outside sandbox a key is required; MASTER_KEY_FILE is read", () => {
    const dir = tempDir();
    expect(() =>
      loadMasterKey({ masterKey: undefined, masterKeyFile: undefined, sandbox: false, dataDir: dir }),
    ).toThrow(/MASTER_KEY/);
    const f = join(dir, "k");
    writeFileSync(f, "cd".repeat(32) + "\n");
    expect(
      loadMasterKey({ masterKey: undefined, masterKeyFile: f, sandbox: false, dataDir: dir }).key,
    ).toEqual(Buffer.from("cd".repeat(32), "hex"));
    expect(() =>
      loadMasterKey({
        masterKey: undefined,
        masterKeyFile: join(dir, "missing"),
        sandbox: false,
        dataDir: dir,
      }),
    ).toThrow(/MASTER_KEY_FILE/);
  });

  it("start-up check: the right key passes, a wrong key fails with a clear error", async () => {
    const store = await openStore("sqlite::memory:", tempDir());
    try {
      const good = testVault();
      await expect(verifyVault(good, store)).resolves.toBeUndefined(); // empty store
      await storeKeyWithWalletOf(store, good);
      await expect(verifyVault(good, store)).resolves.toBeUndefined();
      await expect(verifyVault(testVault("99".repeat(32)), store)).rejects.toThrow(
        /cannot decrypt stored wallets/,
      );
    } finally {
      await store.close();
    }
  });
});
