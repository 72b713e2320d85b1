/**
 * Master-key rotation (`npm run rotate-keys`) on SQLite (always) and PostgreSQL (when TEST_DATABASE_URL is
 * set): re-encrypted under the new key id, same secrets, idempotent, clear failures.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateKeysCommand, type OpenConfiguredStore } from "../../src/cli/rotate-keys-command.js";
import { openStore, type Store, type WalletRecord } from "../../src/store/index.js";
import { createVault, parseMasterKey, type Vault } from "../../src/vault/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const hexKey = (): string => randomBytes(32).toString("hex");
const vaultOf = (hex: string): Vault => createVault(parseMasterKey(hex, "test"));

let counter = 0;

/** Stores `n` new wallets encrypted by `vault` under one new API key; returns their secrets by public key. */
async function seed(store: Store, vault: Vault, n: number): Promise<Map<string, Uint8Array>> {
  const secrets = new Map<string, Uint8Array>();
  let apiKeyId: number | undefined;
  for (let i = 0; i < n; i++) {
    counter += 1;
    const kp = Keypair.generate();
    const publicKey = kp.publicKey.toBase58();
    const w = {
      publicKey,
      createdAt: "2026-01-01T00:00:00.000",
      ...vault.encryptSecret(kp.secretKey, publicKey),
    };
    if (apiKeyId === undefined) {
      apiKeyId = (await store.createApiKeyWithWallet(`rot-${counter}-${Math.random()}`, w)).apiKey.id;
    } else {
      await store.addWallet(apiKeyId, w, false);
    }
    secrets.set(publicKey, Uint8Array.from(kp.secretKey));
  }
  return secrets;
}

/** Every wallet of the store (across keys), by public key. */
async function allWallets(store: Store): Promise<Map<string, WalletRecord>> {
  const all = await store.listWalletsNotUnderKey("", 0, 1_000_000);
  return new Map(all.map((w) => [w.publicKey, w]));
}

function rotationSuite(
  name: string,
  setup: () => Promise<{ store: Store; env: NodeJS.ProcessEnv; open: OpenConfiguredStore }>,
  cleanup: () => Promise<void>,
): void {
  describe(`rotate-keys on ${name}`, () => {
    let store: Store;
    let env: NodeJS.ProcessEnv;
    let open: OpenConfiguredStore;
    beforeAll(async () => {
      ({ store, env, open } = await setup());
    });
    afterAll(async () => {
      await store?.close();
      await cleanup();
    });

    async function run(extra: NodeJS.ProcessEnv): Promise<{ code: number; out: string[]; err: string[] }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await rotateKeysCommand(
        { ...env, ...extra },
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        open,
      );
      return { code, out, err };
    }

    // One scenario per database, in order: the store accumulates wallets across the steps.
    const oldA = hexKey();
    const oldB = hexKey();
    const next = hexKey();
    const later = hexKey();
    let secrets = new Map<string, Uint8Array>();

    it("re-encrypts every wallet under the new key id; each decrypts to the same secret", async () => {
      secrets = new Map([
        ...(await seed(store, vaultOf(oldA), 3)),
        ...(await seed(store, vaultOf(oldB), 2)),
        ...(await seed(store, vaultOf(next), 1)),
      ]);
      const r = await run({ MASTER_KEY: next, PREVIOUS_MASTER_KEYS: `${oldA}, ${oldB}` });
      expect(r.err).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.out).toContain("rotated 5, already current 1, skipped (changed meanwhile) 0, failed 0");
      const newVault = vaultOf(next); // no previous keys: only the new key can decrypt
      expect(await store.walletKeyIdCounts()).toEqual([{ keyId: newVault.keyId, count: 6 }]);
      const stored = await allWallets(store);
      expect(stored.size).toBe(6);
      for (const [pk, secret] of secrets) {
        expect(Buffer.from(newVault.decryptSecret(stored.get(pk) as WalletRecord))).toEqual(
          Buffer.from(secret),
        );
      }
      // Never a key or a secret in the output.
      const text = [...r.out, ...r.err].join("\n");
      for (const k of [oldA, oldB, next]) expect(text).not.toContain(k);
      for (const s of secrets.values()) expect(text).not.toContain(bs58.encode(s));
    });

    it("a second run changes nothing", async () => {
      const before = await allWallets(store);
      const r = await run({ MASTER_KEY: next, PREVIOUS_MASTER_KEYS: oldA });
      expect(r.code).toBe(0);
      expect(r.out).toContain("rotated 0, already current 6, skipped (changed meanwhile) 0, failed 0");
      expect(await allWallets(store)).toEqual(before);
    });

    it("a wrong old key fails clearly, exits non-zero and leaves those wallets untouched", async () => {
      const under = await seed(store, vaultOf(later), 2);
      const before = await allWallets(store);
      const wrong = hexKey();
      const r = await run({ MASTER_KEY: next, PREVIOUS_MASTER_KEYS: wrong });
      expect(r.code).toBe(1);
      expect(r.out).toContain("rotated 0, already current 6, skipped (changed meanwhile) 0, failed 2");
      const laterId = vaultOf(later).keyId;
      expect(r.out.filter((l) => l.startsWith("wallet #"))).toHaveLength(2);
      expect(r.out.join("\n")).toContain(
        `encrypted with key id ${laterId}, which neither MASTER_KEY nor PREVIOUS_MASTER_KEYS has`,
      );
      expect(r.err.join("\n")).toMatch(/2 wallet\(s\) could not be decrypted/);
      expect(await allWallets(store)).toEqual(before);
      // With the right key the same wallets rotate.
      const ok = await run({ MASTER_KEY: next, PREVIOUS_MASTER_KEYS: `${wrong},${later}` });
      expect(ok.code).toBe(0);
      expect(ok.out).toContain("rotated 2, already current 6, skipped (changed meanwhile) 0, failed 0");
      const stored = await allWallets(store);
      for (const [pk, secret] of under) {
        expect(Buffer.from(vaultOf(next).decryptSecret(stored.get(pk) as WalletRecord))).toEqual(
          Buffer.from(secret),
        );
      }
    });

    it("a record that does not authenticate under its key is reported as corrupt; the others rotate", async () => {
      const good = await seed(store, vaultOf(oldA), 1);
      const bad = await seed(store, vaultOf(oldA), 1);
      const [badPk] = [...bad.keys()];
      const badRecord = (await allWallets(store)).get(badPk as string) as WalletRecord;
      const tampered = { ...badRecord, tag: Buffer.alloc(16).toString("base64") };
      expect(await store.replaceWalletSecret(badRecord.id, badRecord, tampered)).toBe(true);
      const r = await run({ MASTER_KEY: next, PREVIOUS_MASTER_KEYS: oldA });
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        `wallet #${badRecord.id}: does not decrypt under the key with id ${vaultOf(oldA).keyId} (record corrupt or tampered)`,
      );
      const [goodPk] = [...good.keys()];
      expect((await allWallets(store)).get(goodPk as string)?.keyId).toBe(vaultOf(next).keyId);
    });

    it("replaceWalletSecret writes only while the record is unchanged", async () => {
      const s = await seed(store, vaultOf(oldA), 1);
      const [pk] = [...s.keys()];
      const rec = (await allWallets(store)).get(pk as string) as WalletRecord;
      const enc = vaultOf(next).encryptSecret(s.get(pk as string) as Uint8Array, pk as string);
      expect(await store.replaceWalletSecret(rec.id, { ...rec, nonce: "other" }, enc)).toBe(false);
      expect(await store.replaceWalletSecret(rec.id, rec, enc)).toBe(true);
      expect(await store.replaceWalletSecret(rec.id, rec, enc)).toBe(false);
      expect(await store.replaceWalletSecret(999_999_999, rec, enc)).toBe(false);
    });

    it("bad configuration: an unparsable previous key is named by position, never echoed", async () => {
      const r = await run({ MASTER_KEY: next, PREVIOUS_MASTER_KEYS: `${oldA},not-a-key!` });
      expect(r.code).toBe(1);
      expect(r.err.join("\n")).toContain("PREVIOUS_MASTER_KEYS entry 2 must be 32 bytes");
      expect(r.err.join("\n")).not.toContain("not-a-key!");
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "lt-rotate-"));
rotationSuite(
  "SQLite",
  async () => {
    const databaseUrl = `sqlite:${join(dir, "rotate.sqlite")}`;
    const store = await openStore(databaseUrl, dir);
    return {
      store,
      env: { DATABASE_URL: databaseUrl, DATA_DIR: dir },
      open: (c) => openStore(c.databaseUrl, c.dataDir),
    };
  },
  async () => rmSync(dir, { recursive: true, force: true }),
);

const pgUrl = TEST_DATABASE_URL;
if (pgUrl !== undefined) {
  const schema = freshSchemaName("rot");
  rotationSuite(
    "PostgreSQL",
    async () => {
      const store = await openStore(pgUrl, dir, { pgSchema: schema });
      return {
        store,
        env: { DATABASE_URL: pgUrl, DATA_DIR: dir },
        open: (c) => openStore(c.databaseUrl, c.dataDir, { pgSchema: schema }),
      };
    },
    async () => dropSchema(pgUrl, schema),
  );
} else {
  describe.skip("rotate-keys on PostgreSQL (set TEST_DATABASE_URL)", () => {
    it("skipped", () => undefined);
  });
}

describe("npm run rotate-keys (the real entry point)", () => {
  const exec = promisify(execFile);
  it("exits 0 after rotating, and 1 when a wallet cannot be decrypted", async () => {
    const d = mkdtempSync(join(tmpdir(), "lt-rotate-cli-"));
    try {
      const databaseUrl = `sqlite:${join(d, "db.sqlite")}`;
      const store = await openStore(databaseUrl, d);
      const old = hexKey();
      const next = hexKey();
      await seed(store, vaultOf(old), 2);
      await store.close();
      const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: d, MASTER_KEY: next };
      const tsx = join(process.cwd(), "node_modules", ".bin", "tsx");
      const failing = await exec(tsx, ["src/cli/rotate-keys.ts"], { env }).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(failing.code).toBe(1);
      expect(failing.stderr).toContain("could not be decrypted");
      const ok = await exec(tsx, ["src/cli/rotate-keys.ts"], { env: { ...env, PREVIOUS_MASTER_KEYS: old } });
      expect(ok.stdout).toContain("rotated 2, already current 0");
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  }, 60_000);
});
