/** The Solana JSON-RPC methods the localnet serves at its root URL. */
import { PublicKey, VersionedMessage } from "@solana/web3.js";
import type { Ledger } from "../ledger/index.js";
import { TransactionRejected } from "../ledger/index.js";
import {
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  tokenAccountBalance,
  uiAmountString,
} from "../ledger/token-balances.js";
import {
  MAX_TRANSACTION_BYTES,
  decodeTransactionString,
  parseComputeBudget,
  resolveMessage,
  transactionFee,
} from "../ledger/wire.js";
import { RpcError, invalidParams } from "./json.js";
import type { AccountEncodingOptions } from "./rpc-shapes.js";
import {
  accountJson,
  signatureInfoJson,
  simulationValue,
  statusJson,
  transactionResultJson,
} from "./rpc-shapes.js";
import { programAccounts } from "./program-accounts.js";
import type { Submitter } from "./submitter.js";

/** A JSON-RPC method implementation. */
export type RpcHandler = (params: unknown[]) => unknown;

/** Solana version reported by getVersion. */
const LOCALNET_VERSION = { "solana-core": "2.2.20", "feature-set": 3294202862 };

type Config = Record<string, unknown> & {
  commitment?: string;
  minContextSlot?: number;
  encoding?: string;
  dataSlice?: { offset: number; length: number };
};

function config(params: unknown[], index: number): Config {
  const c = params[index];
  if (c === undefined || c === null) return {};
  if (typeof c !== "object" || Array.isArray(c))
    throw invalidParams(`Invalid params: config must be an object`);
  return c as Config;
}

function pubkeyParam(v: unknown): PublicKey {
  if (typeof v !== "string") throw invalidParams("Invalid params: expected a base58 pubkey string");
  try {
    return new PublicKey(v);
  } catch {
    throw invalidParams("Invalid param: Invalid");
  }
}

function stringParam(v: unknown, what: string): string {
  if (typeof v !== "string") throw invalidParams(`Invalid params: ${what} must be a string`);
  return v;
}

/** Builds the method table over a ledger and the shared send path. */
export function rpcMethods(
  ledger: Ledger,
  submitter: Submitter,
  programIds: readonly PublicKey[] = [],
): Map<string, RpcHandler> {
  // Reads of the emulated programs' own ids answer like a deployed program's account.
  const programAccount = programAccounts(programIds);
  const readAccount = (k: PublicKey) => ledger.getAccount(k) ?? programAccount(k);
  const context = (cfg: Config = {}) => {
    const slot = ledger.slot();
    if (cfg.minContextSlot !== undefined && BigInt(cfg.minContextSlot) > slot) {
      throw new RpcError(-32016, "Minimum context slot has not been reached", { contextSlot: slot });
    }
    return { apiVersion: LOCALNET_VERSION["solana-core"], slot };
  };
  const withContext = (cfg: Config, value: unknown) => ({ context: context(cfg), value });
  const encodingOf = (cfg: Config): AccountEncodingOptions => ({
    encoding: cfg.encoding,
    dataSlice: cfg.dataSlice,
  });

  const m = new Map<string, RpcHandler>();
  m.set("getHealth", () => "ok");
  m.set("getVersion", () => LOCALNET_VERSION);
  m.set("getGenesisHash", () => "LocaLnet1111111111111111111111111111111111111");
  m.set("getSlot", (p) => context(config(p, 0)).slot);
  m.set("getBlockHeight", (p) => context(config(p, 0)).slot);
  m.set("getEpochInfo", (p) => {
    const slot = context(config(p, 0)).slot;
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: slot / 432_000n,
      slotIndex: slot % 432_000n,
      slotsInEpoch: 432_000,
      transactionCount: null,
    };
  });
  m.set("getLatestBlockhash", (p) => {
    const cfg = config(p, 0);
    return withContext(cfg, ledger.latestBlockhash());
  });
  m.set("isBlockhashValid", (p) => {
    const hash = stringParam(p[0], "blockhash");
    return withContext(config(p, 1), ledger.isBlockhashValid(hash));
  });
  m.set("getAccountInfo", (p) => {
    const cfg = config(p, 1);
    return withContext(cfg, accountJson(readAccount(pubkeyParam(p[0])), encodingOf(cfg), decimalsOf));
  });
  m.set("getMultipleAccounts", (p) => {
    const keys = p[0];
    if (!Array.isArray(keys)) throw invalidParams("Invalid params: expected an array of pubkeys");
    if (keys.length > 100) throw invalidParams("Too many inputs provided; max 100");
    const cfg = config(p, 1);
    return withContext(
      cfg,
      keys.map((k) => accountJson(readAccount(pubkeyParam(k)), encodingOf(cfg), decimalsOf)),
    );
  });
  const decimalsOf = (mint: PublicKey): number => {
    const acc = ledger.getAccount(mint);
    return acc !== null && acc.data.length >= 45 ? acc.data[44]! : 0;
  };
  m.set("getTokenAccountsByOwner", (p) => {
    const owner = pubkeyParam(p[0]);
    const filter = (p[1] ?? {}) as { mint?: unknown; programId?: unknown };
    const cfg = config(p, 2);
    const mint = filter.mint !== undefined ? pubkeyParam(filter.mint) : null;
    const programs =
      filter.programId !== undefined
        ? [pubkeyParam(filter.programId).toBase58()]
        : mint !== null
          ? [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]
          : null;
    if (programs === null) throw invalidParams("Invalid params: expected a mint or programId filter");
    const value: unknown[] = [];
    for (const program of programs) {
      for (const { pubkey, account } of ledger.programAccounts(new PublicKey(program))) {
        const bal = tokenAccountBalance(account, () => null);
        if (bal === null || !bal.owner.equals(owner) || (mint !== null && !bal.mint.equals(mint))) continue;
        value.push({ pubkey: pubkey.toBase58(), account: accountJson(account, encodingOf(cfg), decimalsOf) });
      }
    }
    return withContext(cfg, value);
  });
  m.set("getBalance", (p) => withContext(config(p, 1), ledger.getAccount(pubkeyParam(p[0]))?.lamports ?? 0n));
  m.set("getTokenAccountBalance", (p) => {
    const acc = ledger.getAccount(pubkeyParam(p[0]));
    const bal = acc === null ? null : tokenAccountBalance(acc, (k) => ledger.getAccount(k));
    if (bal === null) throw invalidParams("Invalid param: not a Token account");
    const ui = uiAmountString(bal.amount, bal.decimals);
    return withContext(config(p, 1), {
      amount: bal.amount.toString(),
      decimals: bal.decimals,
      uiAmount: Number(ui),
      uiAmountString: ui,
    });
  });
  m.set("getMinimumBalanceForRentExemption", (p) => {
    const len = p[0];
    if (typeof len !== "number" || !Number.isInteger(len) || len < 0)
      throw invalidParams("Invalid params: dataLen");
    return ledger.rentExemptMinimum(len);
  });
  m.set("getRecentPrioritizationFees", (p) => {
    const keys = p[0];
    if (keys !== undefined && !Array.isArray(keys))
      throw invalidParams("Invalid params: expected an array of pubkeys");
    return ledger.recentPrioritizationFees(keys?.map((k) => pubkeyParam(k).toBase58()));
  });
  m.set("getFeeForMessage", (p) => {
    const cfg = config(p, 1);
    const msg = VersionedMessage.deserialize(Buffer.from(stringParam(p[0], "message"), "base64"));
    if (!ledger.isBlockhashValid(msg.recentBlockhash)) return withContext(cfg, null);
    const fake = { message: msg, signatures: [], version: msg.version } as unknown as Parameters<
      typeof resolveMessage
    >[0];
    const resolved = resolveMessage(fake, () => null);
    return withContext(
      cfg,
      transactionFee(msg.header.numRequiredSignatures, parseComputeBudget(resolved.instructions)),
    );
  });
  m.set("requestAirdrop", (p) => {
    const lamports = p[1];
    if (typeof lamports !== "number" || !Number.isSafeInteger(lamports) || lamports <= 0) {
      throw invalidParams("Invalid params: lamports");
    }
    return ledger.airdrop(pubkeyParam(p[0]), BigInt(lamports));
  });
  m.set("sendTransaction", (p) => {
    const cfg = config(p, 1);
    const wire = decodeParam(p[0], cfg.encoding);
    return submitter.submit(wire, cfg.skipPreflight !== true);
  });
  m.set("simulateTransaction", (p) => {
    const cfg = config(p, 1);
    if (cfg.sigVerify === true && cfg.replaceRecentBlockhash === true) {
      throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
    }
    const wire = decodeParam(p[0], cfg.encoding);
    const accountsCfg = cfg.accounts as { addresses?: unknown; encoding?: string } | undefined;
    const addresses = accountsCfg?.addresses;
    if (
      addresses !== undefined &&
      !(Array.isArray(addresses) && addresses.every((a) => typeof a === "string"))
    ) {
      throw invalidParams("Invalid params: accounts.addresses");
    }
    try {
      const sim = ledger.simulateTransaction(wire, {
        sigVerify: cfg.sigVerify === true,
        replaceRecentBlockhash: cfg.replaceRecentBlockhash === true,
        accounts: addresses as string[] | undefined,
      });
      return withContext(cfg, simulationValue(sim, { encoding: accountsCfg?.encoding ?? "base64" }));
    } catch (e) {
      if (e instanceof TransactionRejected && e.err === "SignatureFailure") {
        throw new RpcError(-32003, `Transaction signature verification failure: ${e.message}`);
      }
      if (e instanceof TransactionRejected) throw invalidParams(`invalid transaction: ${e.message}`);
      throw e;
    }
  });
  m.set("getSignatureStatuses", (p) => {
    const sigs = p[0];
    if (!Array.isArray(sigs)) throw invalidParams("Invalid params: expected an array of signatures");
    if (sigs.length > 256) throw invalidParams("Too many inputs provided; max 256");
    return withContext(
      {},
      sigs.map((s) => statusJson(ledger.signatureStatus(stringParam(s, "signature")))),
    );
  });
  // Newest first; the localnet keeps every landed transaction, so history is never pruned.
  m.set("getSignaturesForAddress", (p) => {
    const address = pubkeyParam(p[0]).toBase58();
    const cfg = config(p, 1);
    const commitment = cfg.commitment ?? "finalized";
    if (commitment === "processed")
      throw invalidParams("Method does not support commitment below `confirmed`");
    const limit = cfg.limit ?? 1000;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw invalidParams("Invalid limit; max 1000");
    const before = cfg.before === undefined ? undefined : stringParam(cfg.before, "before");
    const until = cfg.until === undefined ? undefined : stringParam(cfg.until, "until");
    const level = commitment === "confirmed" ? "confirmed" : "finalized";
    return ledger
      .signaturesForAddress(address, { limit, before, until }, level)
      .map(({ record, status }) => signatureInfoJson(record, status));
  });
  m.set("getTransaction", (p) => {
    const cfg = config(p, 1);
    const commitment = cfg.commitment ?? "finalized";
    if (commitment === "processed")
      throw invalidParams("Method does not support commitment below `confirmed`");
    const record = ledger.getTransaction(stringParam(p[0], "signature"));
    if (record === undefined) return null;
    const status = ledger.signatureStatus(record.signature)!;
    if (status.confirmationStatus === "processed") return null;
    if (commitment === "finalized" && status.confirmationStatus !== "finalized") return null;
    if (record.version !== "legacy" && cfg.maxSupportedTransactionVersion === undefined) {
      throw new RpcError(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    return transactionResultJson(record, cfg.encoding ?? "json");
  });
  return m;
}

/** Decodes a transaction parameter (base58 by default, like the RPC). */
export function decodeParam(v: unknown, encoding: string | undefined): Uint8Array {
  const text = stringParam(v, "transaction");
  let wire: Uint8Array;
  try {
    wire = decodeTransactionString(text, encoding);
  } catch (e) {
    throw invalidParams(`invalid transaction: ${(e as Error).message}`);
  }
  if (wire.length > MAX_TRANSACTION_BYTES) {
    // The RPC's wording for an oversized transaction.
    throw invalidParams(
      `${encoding ?? "base58"} encoded solana_sdk::transaction::versioned::VersionedTransaction too large: ${wire.length} bytes (max: encoded/raw ${encoding === "base64" ? 1644 : 1683}/${MAX_TRANSACTION_BYTES})`,
    );
  }
  return wire;
}
