/**
 * What the fuzzer runs against: the localnet-backed app (test/helpers/e2e.ts) with every log line captured, a
 * funded API key with two wallets, a bonding-curve token and a migrated token with its pool, and the secrets
 * registry seeded with everything secret the setup produced.
 */
import { Writable } from "node:stream";
import { createLogger } from "../../src/runtime/logger.js";
import { TEST_MASTER_KEY_HEX } from "../helpers/app.js";
import { startE2eWithLookupTable, type E2e } from "../helpers/e2e.js";
import { SecretRegistry } from "./secrets.js";
import { LAMPORTS_PER_SOL } from "../../src/core/amounts.js";

/** The fixture's addresses, keys and captured logs. */
export interface FuzzFixture {
  e2e: E2e;
  apiKey: string;
  /** A second key, so wrong-owner paths are exercised with a real key. */
  otherApiKey: string;
  /** Funded wallets of `apiKey`: [default, second]. */
  wallets: [string, string];
  /** A wallet of `otherApiKey`. */
  foreignWallet: string;
  mint: string;
  migratedMint: string;
  pool: string;
  secrets: SecretRegistry;
  /** Every log line the app wrote, in order. */
  logLines: string[];
  /** Tops the funded wallets up and makes the first the default again (fuzzed requests move both). */
  restore(): Promise<void>;
  /** Delinks wallets of the funded key (fixture upkeep, not counted as cases). */
  delink(wallets: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

const FUNDED_SOL = 1_000n;

/**
 * Starts the localnet, the app at log level trace with a capturing sink, and the funded fixture; the app's
 * store is SQLite in memory unless `db` names a database (PostgreSQL: with a schema of its own).
 */
export async function startFuzzFixture(
  db: { databaseUrl?: string; pgSchema?: string } = {},
): Promise<FuzzFixture> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  });
  // The create transactions need the lookup table (over 1232 bytes without one), as in create-token.test.ts.
  const e2e = await startE2eWithLookupTable({ logger: createLogger("trace", sink), ...db });
  const secrets = new SecretRegistry();
  secrets.addBytes(Buffer.from(TEST_MASTER_KEY_HEX, "hex"), "vault master key");
  secrets.add(TEST_MASTER_KEY_HEX, "vault master key (hex)");

  const main = await e2e.setup({ sol: FUNDED_SOL });
  const other = await e2e.setup({ sol: 1n });
  secrets.add(main.apiKey, "API key");
  secrets.add(other.apiKey, "API key");
  secrets.addWalletSecret(main.walletSecret, "wallet secret");
  secrets.addWalletSecret(other.walletSecret, "wallet secret");
  const created = await e2e.post(main.apiKey, "/v1/wallets", {});
  const { public_key: second, private_key_base58 } = created.json<{
    public_key: string;
    private_key_base58: string;
  }>();
  secrets.addWalletSecret(private_key_base58, "wallet secret");
  e2e.localnet.admin.fund(second, FUNDED_SOL * LAMPORTS_PER_SOL);
  const { mint } = e2e.localnet.admin.createToken();
  const migrated = e2e.localnet.admin.createToken();
  e2e.localnet.admin.complete(migrated.mint);
  const { pool } = e2e.localnet.admin.migrate(migrated.mint);

  const wallets: [string, string] = [main.wallet, second];
  return {
    e2e,
    apiKey: main.apiKey,
    otherApiKey: other.apiKey,
    wallets,
    foreignWallet: other.wallet,
    mint,
    migratedMint: migrated.mint,
    pool,
    secrets,
    logLines,
    async restore() {
      for (const w of wallets) {
        const lamports = await e2e.balance(w);
        const want = FUNDED_SOL * LAMPORTS_PER_SOL;
        if (lamports < want) e2e.localnet.admin.fund(w, want - lamports);
      }
      await e2e.app.inject({
        method: "PUT",
        url: `/v1/wallets/${wallets[0]}/default`,
        headers: { "x-api-key": main.apiKey },
      });
    },
    async delink(list) {
      for (const w of list)
        await e2e.app.inject({
          method: "DELETE",
          url: `/v1/wallets/${w}`,
          headers: { "x-api-key": main.apiKey },
        });
    },
    close: () => e2e.close(),
  };
}
