/**
 * create_v2 funds the Token-2022 mint for the size Token-2022 gives it, including the 2-byte pad of a
 * mint that would otherwise be exactly the Multisig length (355 bytes). The oracle is the real Token-2022
 * program running in the ledger: the mint it leaves behind must be rent-exempt at its actual length.
 */
import { afterAll, beforeAll, describe, it, expect } from "vitest";
import fc from "fast-check";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, Transaction } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID, getTokenMetadata } from "@solana/spl-token";
import { launchSdk } from "../../src/launch/sdk.js";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";
import { createLedger } from "../../localnet/ledger/index.js";
import {
  createLaunchProgram,
  createToken,
  createdMintLen,
  installLaunchGenesis,
  readCurve,
} from "../../localnet/programs/launch/index.js";

const MULTISIG_LEN = 355;
const HOST = "https://example.com/";

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0, cashbackCreation: true });
  conn = new Connection(net.rpcUrl, "confirmed");
});
afterAll(async () => {
  await net.close();
});

/** A uri of exactly `n` bytes. */
const uriOfLength = (n: number) => `${HOST}${"u".repeat(n - HOST.length)}`;

async function expectRentExemptMint(mint: string, expectedLen: number): Promise<void> {
  const info = await conn.getAccountInfo(new PublicKey(mint));
  expect(info?.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
  expect(info!.data.length).toBe(expectedLen);
  expect(info!.lamports).toBeGreaterThanOrEqual(await conn.getMinimumBalanceForRentExemption(expectedLen));
}

describe("create_v2 mint size", () => {
  it("the e2e case: name CB, symbol CB, a 33-byte uri makes a padded 357-byte mint", async () => {
    const uri = "https://example.com/cashback.json";
    expect(createdMintLen("CB", "CB", uri)).toBe(MULTISIG_LEN + 2);
    const { mint } = net.admin.createToken({ name: "CB", symbol: "CB", uri, cashback: true });
    await expectRentExemptMint(mint, MULTISIG_LEN + 2);
    const metadata = await getTokenMetadata(conn, new PublicKey(mint), "confirmed", TOKEN_2022_PROGRAM_ID);
    expect(metadata).toMatchObject({ name: "CB", symbol: "CB", uri });
  });

  it("every uri length around the Multisig boundary works through admin.createToken", async () => {
    const lengths: number[] = [];
    for (let n = 20; n <= 48; n++) lengths.push(n);
    const sizes = new Set<number>();
    for (const n of lengths) {
      const uri = uriOfLength(n);
      const { mint } = net.admin.createToken({ name: "CB", symbol: "CB", uri });
      const len = createdMintLen("CB", "CB", uri);
      sizes.add(len);
      await expectRentExemptMint(mint, len);
    }
    // The sweep crosses the padded size (no account ever ends at exactly 355 bytes).
    expect(sizes.has(MULTISIG_LEN)).toBe(false);
    expect(sizes.has(MULTISIG_LEN + 2)).toBe(true);
    expect(Math.min(...sizes)).toBeLessThan(MULTISIG_LEN);
    expect(Math.max(...sizes)).toBeGreaterThan(MULTISIG_LEN + 2);
  });

  it("an SDK-built create_v2 of the boundary size lands from a client", async () => {
    const user = Keypair.generate();
    await conn.requestAirdrop(user.publicKey, 5 * LAMPORTS_PER_SOL);
    const mint = Keypair.generate();
    const ix = await launchSdk.PUMP_SDK.createV2Instruction({
      mint: mint.publicKey,
      name: "CB",
      symbol: "CB",
      uri: "https://example.com/cashback.json",
      creator: user.publicKey,
      user: user.publicKey,
      mayhemMode: false,
      cashback: true,
    });
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
    const tx = new Transaction({ feePayer: user.publicKey, blockhash, lastValidBlockHeight }).add(ix);
    tx.sign(user, mint);
    const sig = await conn.sendRawTransaction(tx.serialize());
    net.admin.advanceSlots(1);
    const status = (await conn.getSignatureStatuses([sig])).value[0];
    expect(status?.err).toBeNull();
    await expectRentExemptMint(mint.publicKey.toBase58(), MULTISIG_LEN + 2);
  });

  it("any name / symbol / uri within the limits creates a rent-exempt mint of Token-2022's size", () => {
    const ledger = createLedger({ programs: [createLaunchProgram({ cashbackCreation: false })] });
    installLaunchGenesis(ledger, { cashbackCreation: false });
    const text = (max: number) =>
      fc
        .string({ unit: "binary", minLength: 1, maxLength: max })
        .filter((s) => Buffer.byteLength(s, "utf8") <= max);
    fc.assert(
      fc.property(text(32), text(13), fc.integer({ min: HOST.length + 1, max: 200 }), (name, symbol, n) => {
        const uri = uriOfLength(n);
        const { mint } = createToken(ledger, { name, symbol, uri });
        const acc = ledger.getAccount(mint)!;
        expect(acc.data.length).toBe(createdMintLen(name, symbol, uri));
        expect(acc.lamports).toBeGreaterThanOrEqual(ledger.rentExemptMinimum(acc.data.length));
        expect(readCurve(ledger, mint)).not.toBeNull();
      }),
      { numRuns: 60, examples: [["CB", "CB", 33]] },
    );
  });
});
