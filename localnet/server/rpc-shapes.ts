/** Response shapes of the official Solana JSON-RPC, built from ledger values (pure). */
import bs58 from "bs58";
import { VersionedTransaction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID, tokenAccountBalance, uiAmountString } from "../ledger/token-balances.js";
import type { AccountState } from "../programs/types.js";
import type { SignatureStatus, SimulationResult, TransactionRecord } from "../ledger/index.js";
import { invalidParams } from "./json.js";

/** rentEpoch as the RPC reports it for rent-exempt accounts (u64::MAX). */
const RENT_EPOCH_MAX = 18446744073709551615n;

/** Options of account-returning methods. */
export interface AccountEncodingOptions {
  encoding?: string;
  dataSlice?: { offset: number; length: number };
}

/** The jsonParsed form of a token account (`spl-token` / `spl-token-2022` "account"), or null. */
function parsedTokenAccount(acc: AccountState, decimalsOf: (mint: PublicKey) => number): unknown {
  const bal = tokenAccountBalance(acc, () => null);
  if (bal === null) return null;
  const decimals = decimalsOf(bal.mint);
  const ui = uiAmountString(bal.amount, decimals);
  const state = acc.data[108] === 2 ? "frozen" : "initialized";
  return {
    program: acc.owner.toBase58() === TOKEN_PROGRAM_ID ? "spl-token" : "spl-token-2022",
    parsed: {
      info: {
        isNative: Buffer.from(acc.data).readUInt32LE(109) === 1,
        mint: bal.mint.toBase58(),
        owner: bal.owner.toBase58(),
        state,
        tokenAmount: { amount: bal.amount.toString(), decimals, uiAmount: Number(ui), uiAmountString: ui },
      },
      type: "account",
    },
    space: acc.data.length,
  };
}

/**
 * An account object (`getAccountInfo` value) in the requested encoding; jsonParsed parses token
 * accounts (given `decimalsOf`) and falls back to base64 for everything else, as the RPC does.
 */
export function accountJson(
  acc: AccountState | null,
  opts: AccountEncodingOptions = {},
  decimalsOf?: (mint: PublicKey) => number,
): unknown {
  if (acc === null) return null;
  if (opts.encoding === "jsonParsed" && decimalsOf !== undefined) {
    const parsed = parsedTokenAccount(acc, decimalsOf);
    if (parsed !== null) {
      return {
        data: parsed,
        executable: acc.executable,
        lamports: acc.lamports,
        owner: acc.owner.toBase58(),
        rentEpoch: RENT_EPOCH_MAX,
        space: acc.data.length,
      };
    }
  }
  let data = acc.data;
  if (opts.dataSlice !== undefined) {
    data = data.subarray(opts.dataSlice.offset, opts.dataSlice.offset + opts.dataSlice.length);
  }
  const encoding = opts.encoding ?? "base58";
  let encoded: unknown;
  if (encoding === "base64" || encoding === "jsonParsed")
    encoded = [Buffer.from(data).toString("base64"), "base64"];
  else if (encoding === "base58") {
    if (data.length > 128)
      throw invalidParams(
        "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
      );
    encoded = [bs58.encode(data), "base58"];
  } else throw invalidParams(`unsupported encoding: ${encoding}`);
  return {
    data: encoded,
    executable: acc.executable,
    lamports: acc.lamports,
    owner: acc.owner.toBase58(),
    rentEpoch: RENT_EPOCH_MAX,
    space: acc.data.length,
  };
}

/** The `value` of a simulateTransaction response (accounts left to the caller when requested). */
export function simulationValue(
  sim: SimulationResult,
  accountEncoding?: AccountEncodingOptions,
): Record<string, unknown> {
  return {
    err: sim.err,
    logs: sim.logs,
    accounts:
      sim.accounts === null
        ? null
        : sim.accounts.map((a) => accountJson(a, accountEncoding ?? { encoding: "base64" })),
    unitsConsumed: sim.unitsConsumed,
    returnData: null,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    replacementBlockhash: sim.replacementBlockhash,
    fee: sim.fee,
    preBalances: sim.preBalances,
    postBalances: sim.postBalances,
  };
}

/** A getSignaturesForAddress entry. */
export function signatureInfoJson(r: TransactionRecord, s: SignatureStatus): unknown {
  return {
    signature: r.signature,
    slot: r.slot,
    err: r.err,
    memo: null,
    blockTime: r.blockTime,
    confirmationStatus: s.confirmationStatus,
  };
}

/** A getSignatureStatuses entry. */
export function statusJson(s: SignatureStatus | null): unknown {
  if (s === null) return null;
  return {
    slot: s.slot,
    confirmations: s.confirmations,
    err: s.err,
    status: s.err === null ? { Ok: null } : { Err: s.err },
    confirmationStatus: s.confirmationStatus,
  };
}

/** The `transaction` field of getTransaction in "json" encoding. */
function transactionJsonEncoding(wire: Uint8Array): unknown {
  const tx = VersionedTransaction.deserialize(wire);
  const m = tx.message;
  const message: Record<string, unknown> = {
    accountKeys: m.staticAccountKeys.map((k) => k.toBase58()),
    header: m.header,
    instructions: m.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: bs58.encode(ix.data),
      stackHeight: null,
    })),
    recentBlockhash: m.recentBlockhash,
  };
  if (tx.version !== "legacy") {
    message.addressTableLookups = m.addressTableLookups.map((l) => ({
      accountKey: l.accountKey.toBase58(),
      writableIndexes: l.writableIndexes,
      readonlyIndexes: l.readonlyIndexes,
    }));
  }
  return { message, signatures: tx.signatures.map((s) => bs58.encode(s)) };
}

/** A getTransaction result in "json" or "base64"/"base58" encoding. */
export function transactionResultJson(r: TransactionRecord, encoding: string): unknown {
  let transaction: unknown;
  if (encoding === "base64") transaction = [Buffer.from(r.wire).toString("base64"), "base64"];
  else if (encoding === "base58") transaction = [bs58.encode(r.wire), "base58"];
  else transaction = transactionJsonEncoding(r.wire);
  return {
    slot: r.slot,
    blockTime: r.blockTime,
    version: r.version,
    transaction,
    meta: {
      err: r.err,
      status: r.err === null ? { Ok: null } : { Err: r.err },
      fee: r.fee,
      preBalances: r.preBalances,
      postBalances: r.postBalances,
      innerInstructions: [],
      logMessages: r.logs,
      preTokenBalances: r.preTokenBalances,
      postTokenBalances: r.postTokenBalances,
      rewards: [],
      loadedAddresses: r.loadedAddresses,
      computeUnitsConsumed: r.unitsConsumed,
    },
  };
}
