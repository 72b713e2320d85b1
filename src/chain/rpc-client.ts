import { PublicKey } from "@solana/web3.js";
import {
  createJsonRpcTransport,
  isObject,
  realSleep,
  toBigInt,
  toSafeNumber,
  type FetchLike,
  type RetryPolicy,
} from "./json-rpc.js";
import { TransportError } from "./upstream-errors.js";

export { HttpError, RpcError, TimeoutError, TransportError } from "./upstream-errors.js";

/** Commitment levels of the Solana RPC. */
export type Commitment = "processed" | "confirmed" | "finalized";

/** An account as read over RPC (base64 data decoded). */
export interface AccountInfo {
  lamports: bigint;
  owner: PublicKey;
  data: Buffer;
  executable: boolean;
}

/** A value with the slot the node read it at. */
export interface WithSlot<T> {
  slot: number;
  value: T;
}

/** One entry of getSignatureStatuses. */
export interface SignatureStatus {
  slot: number;
  confirmations: number | null;
  /** TransactionError JSON as the node sent it, or null on success. */
  err: unknown;
  confirmationStatus: Commitment | null;
}

/** Result of simulateTransaction. */
export interface SimulationResult {
  err: unknown;
  logs: string[] | null;
  unitsConsumed: number | null;
}

/** Options of the RPC client. */
export interface RpcClientOptions {
  url: string;
  /** Per-call timeout (each attempt). */
  timeoutMs: number;
  /** Extra attempts for reads on transient failures (429, 5xx, timeouts, connection errors). Sends never retry. */
  readRetries: number;
  /** No read retry starts once the read has spent this long in all (see RetryPolicy.budgetMs). Default: none. */
  readBudgetMs?: number;
  fetch?: FetchLike;
  /** Backoff base and cap (full jitter). Defaults 50 ms and 1000 ms. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Commitment for reads. Default "confirmed"; blockhash and simulation use "processed" / "confirmed" explicitly. */
  commitment?: Commitment;
  /** Sent with every call (e.g. x-localnet-tag: background on the client of the background caches). */
  headers?: Record<string, string>;
}

/** The typed JSON-RPC methods the execution pipeline uses. */
export interface RpcClient {
  getMultipleAccounts(keys: PublicKey[]): Promise<WithSlot<(AccountInfo | null)[]>>;
  getAccountInfo(key: PublicKey): Promise<WithSlot<AccountInfo | null>>;
  getBalance(key: PublicKey): Promise<WithSlot<bigint>>;
  getLatestBlockhash(
    commitment?: Commitment,
  ): Promise<WithSlot<{ blockhash: string; lastValidBlockHeight: number }>>;
  getRecentPrioritizationFees(accounts?: PublicKey[]): Promise<{ slot: number; prioritizationFee: bigint }[]>;
  /** At most 256 signatures; `searchTransactionHistory` also finds signatures older than the status cache. */
  getSignatureStatuses(
    signatures: string[],
    options?: { searchTransactionHistory?: boolean },
  ): Promise<WithSlot<(SignatureStatus | null)[]>>;
  simulateTransaction(wire: Uint8Array): Promise<WithSlot<SimulationResult>>;
  /** One attempt, never retried: a retry of a send is the confirmer's rebroadcast, not the client's. */
  sendTransaction(wire: Uint8Array): Promise<string>;
  getMinimumBalanceForRentExemption(dataLength: number): Promise<bigint>;
  getSlot(): Promise<number>;
  getBlockHeight(): Promise<number>;
  /** Log lines of a landed transaction (null when the node does not have it). */
  getTransactionLogs(signature: string): Promise<string[] | null>;
  /** The owner's token accounts under one token program (jsonParsed), at the client's commitment. */
  getTokenAccountsByOwner(owner: PublicKey, programId: PublicKey): Promise<WithSlot<OwnedTokenAccount[]>>;
  /** The landed transaction's JSON (`meta` with balances, `transaction.message.accountKeys`); null if unknown. */
  getTransactionJson(signature: string): Promise<unknown>;
  /** Signatures of landed transactions mentioning `address`, newest first (confirmed), paged by `before`/`until`. */
  getSignaturesForAddress(address: string, page: SignaturesPage): Promise<AddressSignature[]>;
}

/** Paging of getSignaturesForAddress: at most `limit` (≤ 1000), after `before`, down to `until` (both exclusive). */
export interface SignaturesPage {
  limit?: number;
  before?: string;
  until?: string;
}

/** One entry of getSignaturesForAddress. */
export interface AddressSignature {
  signature: string;
  slot: number;
  /** The transaction error; null when it succeeded. */
  err: unknown;
}

// getMultipleAccounts accepts at most 100 keys per call.
const MAX_KEYS_PER_CALL = 100;

/** Builds a JSON-RPC client with per-call timeouts and jittered read retries. */
export function createRpcClient(options: RpcClientOptions): RpcClient {
  const transport = createJsonRpcTransport({
    url: options.url,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
  });
  const commitment = options.commitment ?? "confirmed";
  const policy: RetryPolicy = {
    retries: options.readRetries,
    ...(options.readBudgetMs !== undefined ? { budgetMs: options.readBudgetMs } : {}),
    baseDelayMs: options.retryBaseMs ?? 50,
    maxDelayMs: options.retryMaxMs ?? 1000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? realSleep,
  };
  const read = (method: string, params: unknown[]) => transport.callWithRetry(method, params, policy);

  async function getMultipleAccounts(keys: PublicKey[]) {
    const chunks: PublicKey[][] = [];
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL)
      chunks.push(keys.slice(i, i + MAX_KEYS_PER_CALL));
    const results = await Promise.all(
      chunks.map(async (chunk) => {
        const res = await read("getMultipleAccounts", [
          chunk.map((k) => k.toBase58()),
          { encoding: "base64", commitment },
        ]);
        const { slot, value } = contextValue("getMultipleAccounts", res);
        if (!Array.isArray(value) || value.length !== chunk.length) {
          throw new TransportError("getMultipleAccounts", "value is not an array of the requested length");
        }
        return { slot, value: value.map((a) => decodeAccount("getMultipleAccounts", a)) };
      }),
    );
    // Chunks may be served at different slots; report the lowest so callers never overstate freshness.
    const slot = results.length ? Math.min(...results.map((r) => r.slot)) : 0;
    return { slot, value: results.flatMap((r) => r.value) };
  }

  return {
    getMultipleAccounts,
    async getAccountInfo(key) {
      const res = await read("getAccountInfo", [key.toBase58(), { encoding: "base64", commitment }]);
      const { slot, value } = contextValue("getAccountInfo", res);
      return { slot, value: decodeAccount("getAccountInfo", value) };
    },
    async getBalance(key) {
      const res = await read("getBalance", [key.toBase58(), { commitment }]);
      const { slot, value } = contextValue("getBalance", res);
      return { slot, value: toBigInt(value, "balance") };
    },
    async getLatestBlockhash(level = "confirmed") {
      const res = await read("getLatestBlockhash", [{ commitment: level }]);
      const { slot, value } = contextValue("getLatestBlockhash", res);
      if (!isObject(value) || typeof value.blockhash !== "string") {
        throw new TransportError("getLatestBlockhash", "malformed value");
      }
      return {
        slot,
        value: {
          blockhash: value.blockhash,
          lastValidBlockHeight: toSafeNumber(value.lastValidBlockHeight, "lastValidBlockHeight"),
        },
      };
    },
    async getRecentPrioritizationFees(accounts) {
      const params = accounts?.length ? [accounts.map((a) => a.toBase58())] : [];
      const res = await read("getRecentPrioritizationFees", params);
      if (!Array.isArray(res))
        throw new TransportError("getRecentPrioritizationFees", "result is not an array");
      return res.map((e) => {
        if (!isObject(e)) throw new TransportError("getRecentPrioritizationFees", "malformed entry");
        return {
          slot: toSafeNumber(e.slot, "slot"),
          prioritizationFee: toBigInt(e.prioritizationFee, "fee"),
        };
      });
    },
    async getSignatureStatuses(signatures, options) {
      const res = await read("getSignatureStatuses", [
        signatures,
        { searchTransactionHistory: options?.searchTransactionHistory ?? false },
      ]);
      const { slot, value } = contextValue("getSignatureStatuses", res);
      if (!Array.isArray(value)) throw new TransportError("getSignatureStatuses", "value is not an array");
      return { slot, value: value.map(decodeStatus) };
    },
    async simulateTransaction(wire) {
      // The exact signed bytes are simulated: no blockhash replacement (an expired blockhash must show), and
      // signatures are not re-verified (they were just made by us).
      const res = await read("simulateTransaction", [
        Buffer.from(wire).toString("base64"),
        { encoding: "base64", sigVerify: false, replaceRecentBlockhash: false, commitment: "processed" },
      ]);
      const { slot, value } = contextValue("simulateTransaction", res);
      if (!isObject(value)) throw new TransportError("simulateTransaction", "malformed value");
      return {
        slot,
        value: {
          err: value.err ?? null,
          logs: Array.isArray(value.logs) ? value.logs.map(String) : null,
          unitsConsumed:
            value.unitsConsumed == null ? null : toSafeNumber(value.unitsConsumed, "unitsConsumed"),
        },
      };
    },
    async sendTransaction(wire) {
      const res = await transport.call("sendTransaction", [
        Buffer.from(wire).toString("base64"),
        { encoding: "base64", skipPreflight: true, maxRetries: 0 },
      ]);
      if (typeof res !== "string") throw new TransportError("sendTransaction", "result is not a signature");
      return res;
    },
    async getMinimumBalanceForRentExemption(dataLength) {
      const res = await read("getMinimumBalanceForRentExemption", [dataLength, { commitment }]);
      return toBigInt(res, "rent");
    },
    async getSlot() {
      return toSafeNumber(await read("getSlot", [{ commitment: "processed" }]), "slot");
    },
    async getBlockHeight() {
      return toSafeNumber(await read("getBlockHeight", [{ commitment: "confirmed" }]), "blockHeight");
    },
    async getTokenAccountsByOwner(owner, programId) {
      const res = await read("getTokenAccountsByOwner", [
        owner.toBase58(),
        { programId: programId.toBase58() },
        { encoding: "jsonParsed", commitment },
      ]);
      const { slot, value } = contextValue("getTokenAccountsByOwner", res);
      const list = Array.isArray(value) ? value : [];
      return { slot, value: list.flatMap((entry) => ownedTokenAccount(entry, programId)) };
    },
    async getTransactionJson(signature) {
      return read("getTransaction", [
        signature,
        { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
      ]);
    },
    async getSignaturesForAddress(address, page) {
      const res = await read("getSignaturesForAddress", [address, { commitment: "confirmed", ...page }]);
      if (!Array.isArray(res)) throw new TransportError("getSignaturesForAddress", "result is not an array");
      return res.map((e: unknown) => {
        if (!isObject(e) || typeof e.signature !== "string")
          throw new TransportError("getSignaturesForAddress", "entry lacks a signature");
        return { signature: e.signature, slot: toSafeNumber(e.slot, "slot"), err: e.err ?? null };
      });
    },
    async getTransactionLogs(signature) {
      const res = await read("getTransaction", [
        signature,
        { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
      ]);
      if (!isObject(res) || !isObject(res.meta)) return null;
      const logs = res.meta.logMessages;
      return Array.isArray(logs) ? logs.map(String) : null;
    },
  };
}

function contextValue(method: string, res: unknown): { slot: number; value: unknown } {
  if (!isObject(res) || !isObject(res.context) || !("value" in res)) {
    throw new TransportError(method, "result lacks context/value");
  }
  return { slot: toSafeNumber(res.context.slot, "slot"), value: res.value };
}

function decodeAccount(method: string, a: unknown): AccountInfo | null {
  if (a === null) return null;
  if (
    !isObject(a) ||
    !Array.isArray(a.data) ||
    typeof a.data[0] !== "string" ||
    typeof a.owner !== "string"
  ) {
    throw new TransportError(method, "malformed account");
  }
  return {
    lamports: toBigInt(a.lamports, "lamports"),
    owner: new PublicKey(a.owner),
    data: Buffer.from(a.data[0], "base64"),
    executable: a.executable === true,
  };
}

function decodeStatus(s: unknown): SignatureStatus | null {
  if (!isObject(s)) return null;
  const level = s.confirmationStatus;
  return {
    slot: toSafeNumber(s.slot, "slot"),
    confirmations: s.confirmations == null ? null : toSafeNumber(s.confirmations, "confirmations"),
    err: s.err ?? null,
    confirmationStatus:
      level === "processed" || level === "confirmed" || level === "finalized" ? level : null,
  };
}

/** One token account of an owner, as getTokenAccountsByOwner (jsonParsed) describes it. */
export interface OwnedTokenAccount {
  address: string;
  mint: string;
  /** Atomic units. */
  amount: bigint;
  decimals: number;
  tokenProgram: string;
}

function ownedTokenAccount(entry: unknown, programId: PublicKey): OwnedTokenAccount[] {
  if (!isObject(entry) || typeof entry.pubkey !== "string" || !isObject(entry.account)) return [];
  const data = entry.account.data;
  if (!isObject(data) || !isObject(data.parsed) || !isObject(data.parsed.info)) return [];
  const info = data.parsed.info;
  const amount = isObject(info.tokenAmount) ? info.tokenAmount : {};
  if (typeof info.mint !== "string" || typeof amount.amount !== "string") return [];
  return [
    {
      address: entry.pubkey,
      mint: info.mint,
      amount: BigInt(amount.amount),
      decimals: typeof amount.decimals === "number" ? amount.decimals : 0,
      tokenProgram: programId.toBase58(),
    },
  ];
}
