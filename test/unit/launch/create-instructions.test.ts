import { describe, expect, it } from "vitest";
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { launchSdk } from "../../../src/launch/sdk.js";
import { launchProgram } from "../../../src/launch/programs-offline.js";
import { buildCreateV2, buildCreateV2AndBuyExactSolIn } from "../../../src/launch/create-instructions.js";
import {
  associatedTokenAddress,
  bondingCurveAddress,
  creatorVaultAddress,
} from "../../../src/launch/programs.js";
import type { LaunchGlobal, SwapGlobalConfig } from "../../../src/launch/state.js";
import { staticLookupAddresses } from "../../../src/launch/lookup-table.js";
import { key, lookupTableOf } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const creator = key(2);
const mint = key(3);
const FEE = key(4);
const RESERVED = key(5);
const BUYBACK = key(6);
const global = {
  feeRecipient: FEE,
  feeRecipients: Array<PublicKey>(7).fill(Z),
  reservedFeeRecipient: RESERVED,
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [BUYBACK, ...Array<PublicKey>(7).fill(Z)],
} as unknown as LaunchGlobal; // only the recipient lists matter to the builders

const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b.toString("hex");
};

const swapGlobalConfig = {
  protocolFeeRecipients: [key(7), ...Array<PublicKey>(7).fill(Z)],
  reservedFeeRecipient: key(8),
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [key(10), ...Array<PublicKey>(7).fill(Z)],
} as unknown as SwapGlobalConfig; // only the recipient lists matter to the lookup table

const base = {
  mint,
  name: "Laser",
  symbol: "LSR",
  uri: "https://example.com/m.json",
  creator,
  mayhem: false,
};

type CreateArgs = {
  name: string;
  symbol: string;
  uri: string;
  creator: PublicKey;
  isMayhemMode: boolean;
  isCashbackEnabled: [boolean] | { 0: boolean };
};

function decodeCreate(data: Buffer): { name: string; data: CreateArgs } {
  // The coder is Anchor's Borsh instruction coder; its interface type omits decode.
  const coder = launchProgram.coder.instruction as unknown as { decode(d: Buffer): unknown };
  const decoded = coder.decode(data);
  if (decoded === null) throw new Error("not a launch instruction");
  return decoded as unknown as { name: string; data: CreateArgs };
}

const cashbackFlag = (a: CreateArgs) =>
  Array.isArray(a.isCashbackEnabled) ? a.isCashbackEnabled[0] : a.isCashbackEnabled[0];

describe("create_v2", () => {
  it("is the SDK's create_v2: 16 accounts, mint and creator sign, Token-2022", async () => {
    const ours = await buildCreateV2({ ...base, cashback: false });
    const sdk = await launchSdk.PUMP_SDK.createV2Instruction({
      mint,
      name: "Laser",
      symbol: "LSR",
      uri: base.uri,
      creator,
      user: creator,
      mayhemMode: false,
    });
    expect(ours.keys).toEqual(sdk.keys);
    expect(ours.data).toEqual(sdk.data);
    expect(ours.keys).toHaveLength(16);
    expect(ours.keys.filter((k) => k.isSigner).map((k) => k.pubkey)).toEqual([mint, creator]);
    expect(ours.keys[7]?.pubkey).toEqual(TOKEN_2022_PROGRAM_ID);
    expect(Buffer.from(ours.data).subarray(0, 8).toString("hex")).toBe("d6904cec5f8b31b4");
    const args = decodeCreate(Buffer.from(ours.data));
    expect(args.name).toBe("createV2");
    expect(args.data.name).toBe("Laser");
    expect(args.data.symbol).toBe("LSR");
    expect(args.data.uri).toBe(base.uri);
    expect(args.data.creator).toEqual(creator);
    expect(args.data.isMayhemMode).toBe(false);
    expect(cashbackFlag(args.data)).toBe(false);
  });

  it("encodes a cashback create from the IDL with the same accounts and the flag set", async () => {
    const plain = await buildCreateV2({ ...base, mayhem: true, cashback: false });
    const cashback = await buildCreateV2({ ...base, mayhem: true, cashback: true });
    expect(cashback.keys).toEqual(plain.keys);
    const args = decodeCreate(Buffer.from(cashback.data));
    expect(cashbackFlag(args.data)).toBe(true);
    expect(args.data.isMayhemMode).toBe(true);
    // Only the cashback option byte differs.
    const diff = [...cashback.data].map((b, i) => (b === plain.data[i] ? -1 : i)).filter((i) => i >= 0);
    expect(diff).toHaveLength(1);
  });
});

describe("create_v2 with the creator's first buy", () => {
  it("is [create_v2, Token-2022 ATA create, buy_exact_sol_in against the creator's vault]", async () => {
    const ixs = await buildCreateV2AndBuyExactSolIn({
      ...base,
      cashback: false,
      global,
      spendableLamports: 1_000_000_000n,
      minTokensOut: 33_000_000_000_000n,
      random: () => 0,
    });
    expect(ixs).toHaveLength(3);
    const [create, ata, buy] = ixs;
    expect(Buffer.from(create!.data).subarray(0, 8).toString("hex")).toBe("d6904cec5f8b31b4");
    expect(ata!.keys[1]?.pubkey).toEqual(associatedTokenAddress(creator, mint, TOKEN_2022_PROGRAM_ID));
    expect(ata!.keys[5]?.pubkey).toEqual(TOKEN_2022_PROGRAM_ID);
    expect(Buffer.from(buy!.data).toString("hex")).toBe(
      `38fc74089edfcd5f${u64(1_000_000_000n)}${u64(33_000_000_000_000n)}01`,
    );
    expect(buy!.keys).toHaveLength(18);
    expect(buy!.keys[1]?.pubkey).toEqual(FEE);
    expect(buy!.keys[3]?.pubkey).toEqual(bondingCurveAddress(mint));
    expect(buy!.keys[9]?.pubkey).toEqual(creatorVaultAddress(creator));
    expect(buy!.keys[17]?.pubkey).toEqual(BUYBACK);
  });

  it("a mayhem create buys through the reserved fee recipient", async () => {
    const ixs = await buildCreateV2AndBuyExactSolIn({
      ...base,
      mayhem: true,
      cashback: false,
      global,
      spendableLamports: 1n,
      minTokensOut: 1n,
    });
    expect(ixs[2]?.keys[1]?.pubkey).toEqual(RESERVED);
  });

  it("needs a v0 message with the static lookup table once metadata is realistic", async () => {
    const payer = creator;
    const tip = key(99);
    const build = async (uri: string) => [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 400_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 100_000 }),
      ...(await buildCreateV2AndBuyExactSolIn({
        ...base,
        name: "N".repeat(32),
        symbol: "S".repeat(13),
        uri,
        cashback: false,
        global,
        spendableLamports: 1n,
        minTokensOut: 1n,
      })),
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: tip, lamports: 200_000 }),
    ];
    const blockhash = Keypair.generate().publicKey.toBase58();
    const message = (instructions: Awaited<ReturnType<typeof build>>) =>
      new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions });
    // A typical IPFS gateway URI is already too long for a legacy transaction...
    const typical = await build(`https://ipfs.io/ipfs/${"Q".repeat(46)}`);
    expect(
      new VersionedTransaction(message(typical).compileToLegacyMessage()).serialize().length,
    ).toBeGreaterThan(1232);
    // ...while a v0 message using the static lookup table fits even the longest metadata.
    const table = lookupTableOf(
      staticLookupAddresses({ global, swapGlobalConfig, tipAccounts: [tip] }),
      key(200),
    );
    const longest = await build(`https://${"u".repeat(192)}`);
    const v0 = new VersionedTransaction(message(longest).compileToV0Message([table]));
    expect(v0.serialize().length).toBeLessThanOrEqual(1232);
    // Signers stay in the message itself.
    expect(v0.message.staticAccountKeys.slice(0, 2)).toEqual([creator, mint]);
  });
});
