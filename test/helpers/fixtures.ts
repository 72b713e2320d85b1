/** Small fixture builders shared by the unit tests. */
import { randomUUID } from "node:crypto";
import BN from "bn.js";
import bs58 from "bs58";
import { AddressLookupTableAccount, Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { ACCOUNT_SIZE, AccountLayout, AccountState, MINT_SIZE, MintLayout } from "@solana/spl-token";
import { assembleTransaction } from "../../src/chain/tx-assembly.js";
import type { Address } from "../../src/core/addresses.js";
import { launchProgram } from "../../src/launch/programs-offline.js";
import type { ExecutionRecord, KeyRecord, NewExecution, NewWallet } from "../../src/store/index.js";

/** A valid, distinct base58 address: 32 bytes of `n`. */
export const addr = (n: number): Address => bs58.encode(Buffer.alloc(32, n)) as Address;

/** A distinct on-curve public key: the keypair seeded with 32 bytes of `n`. */
export const key = (n: number): PublicKey => Keypair.fromSeed(Buffer.alloc(32, n)).publicKey;

/**
 * An initialized token account's bytes (no delegate, no close authority). `isNative` makes it a wrapped-SOL
 * account with that rent reserve; `size` above ACCOUNT_SIZE leaves room as Token-2022 extensions would.
 */
export function tokenAccountData(a: {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  isNative?: bigint;
  size?: number;
}): Buffer {
  const data = Buffer.alloc(a.size ?? ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint: a.mint,
      owner: a.owner,
      amount: a.amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: AccountState.Initialized,
      isNativeOption: a.isNative === undefined ? 0 : 1,
      isNative: a.isNative ?? 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

/**
 * A fresh SOL bonding curve's bytes as the launch program's IDL coder encodes them (125 bytes; a newer program
 * allocates more: append `trailing`), created by `creator` (default key(2)).
 */
export async function bondingCurveData(
  creator = key(2),
  trailing: Buffer = Buffer.alloc(0),
): Promise<Buffer> {
  const curve = await launchProgram.coder.accounts.encode("bondingCurve", {
    virtualTokenReserves: new BN("1073000000000000"),
    virtualQuoteReserves: new BN("30000000000"),
    realTokenReserves: new BN("793100000000000"),
    realQuoteReserves: new BN(0),
    tokenTotalSupply: new BN("1000000000000000"),
    complete: false,
    creator,
    isMayhemMode: true,
    isCashbackCoin: true,
    quoteMint: PublicKey.default,
    creatorFeeBps: new BN(95),
    canEditCreatorFee: true,
    isHolderReward: false,
  });
  return Buffer.concat([curve, trailing]);
}

/** An initialized mint's bytes with no mint or freeze authority. */
export function mintData(m: { supply: bigint; decimals: number }): Buffer {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: m.supply,
      decimals: m.decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

/** A signed one-instruction launch-program transaction with a fixed blockhash, for submission and confirmation tests. */
export function sampleTransaction(): ReturnType<typeof assembleTransaction> {
  const launch = new PublicKey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");
  return assembleTransaction({
    payer: Keypair.generate(),
    instructions: [new TransactionInstruction({ programId: launch, keys: [], data: Buffer.from([0]) })],
    computeUnitLimit: 100_000,
    computeUnitPriceMicroLamports: 1n,
    blockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N",
  });
}

/** An open trade execution record of `wallet` (a fresh id, status pending); `over` replaces any field. */
export function newExecution(
  apiKeyId: number,
  wallet: string,
  over: Partial<NewExecution> = {},
): NewExecution {
  return {
    id: randomUUID(),
    apiKeyId,
    kind: "trade",
    wallet,
    wallets: [wallet],
    signatures: ["S"],
    bundleId: null,
    status: "pending",
    confirmationStatus: null,
    request: {},
    response: null,
    error: null,
    timings: null,
    ...over,
  };
}

/** The record a store returns for `e` (what fake stores of the unit tests answer `insertExecution` with). */
export function storedExecution(e: NewExecution): ExecutionRecord {
  return {
    ...e,
    lastValidBlockHeight: e.lastValidBlockHeight ?? null,
    idempotencyKey: e.idempotencyKey ?? null,
    computeUnitPriceMicroLamports: e.computeUnitPriceMicroLamports ?? null,
    createdAt: "",
    updatedAt: "",
  };
}

/** An active lookup table account (never deactivated) holding `addresses`, at `address` (default: a fresh key). */
export function lookupTableOf(
  addresses: PublicKey[],
  address: PublicKey = Keypair.generate().publicKey,
): AddressLookupTableAccount {
  return new AddressLookupTableAccount({
    key: address,
    state: {
      deactivationSlot: 2n ** 64n - 1n,
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      addresses,
    },
  });
}

/** A wallet row for `createApiKeyWithWallet` with placeholder secret fields (store tests never decrypt it). */
export function newWalletRecord(publicKey: string): NewWallet {
  return {
    publicKey,
    ciphertext: "c",
    nonce: "n",
    tag: "t",
    keyId: "k",
    createdAt: "2026-01-01T00:00:00.000",
  };
}

/** A key record as the store answers one (a sub-key of account 1 by default), with `over` on top. */
export function keyRecord(over: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id: 2,
    accountId: 1,
    root: false,
    name: "bot",
    scopes: ["trade"],
    wallets: null,
    expiresAt: null,
    revokedAt: null,
    frozen: false,
    accountFrozen: false,
    policy: null,
    createdAt: "2026-11-28T00:00:00.000",
    createdBy: null,
    version: 0,
    rootVersion: 0,
    ...over,
  };
}
