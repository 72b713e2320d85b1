/**
 * Issue 22: what a landed transaction actually moved for one wallet, read from the chain's own record
 * (getTransaction: `meta.preBalances/postBalances`, token balances), not from the quote.
 */
import { isObject } from "./json-rpc.js";

/** SOL and token movements of one wallet in one transaction; lamport and atomic amounts as decimal strings. */
export interface Fill {
  /** post − pre of the wallet's lamports (negative when it spent): exactly the chain's balance change. */
  sol_change_lamports: string;
  /** The transaction fee (base + priority) the fee payer paid (`meta.fee`); 0 when the wallet did not pay. */
  fee_lamports: string;
  /** Lamports the relay's tip accounts received in this transaction. */
  tip_lamports: string;
  /** Rent of accounts the transaction created (absent before, funded after), e.g. the wallet's token account. */
  rent_lamports: string;
  /**
   * What the trade itself moved: for a buy the SOL spent on the trade (−change − fee − tip − rent), for a sell
   * the SOL received (change + fee + tip + rent).
   */
  trade_sol_lamports: string;
  /** post − pre of the wallet's balance of the mint, atomic units (positive when it received). */
  token_change: string;
  /**
   * Issue 33: the wallet's balance of the mint after the transaction (the positions ledger sees tokens that
   * moved outside the service by comparing it with what it holds); absent on fills recorded before it.
   */
  token_balance_after?: string;
  /** Issue 33: the mint's decimals as the token balances state them; absent when no balance names the mint. */
  token_decimals?: number;
}

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string; decimals?: number };
}

function tokenBalances(v: unknown): TokenBalance[] {
  return Array.isArray(v) ? (v.filter((b) => isObject(b)) as unknown as TokenBalance[]) : [];
}

/** Every account key in the order the balances use: static keys, then loaded writable, then loaded readonly. */
function accountKeysOf(tx: Record<string, unknown>, meta: Record<string, unknown>): string[] {
  const message = isObject(tx.transaction) && isObject(tx.transaction.message) ? tx.transaction.message : {};
  const statics = Array.isArray(message.accountKeys) ? message.accountKeys.map(String) : [];
  const loaded = isObject(meta.loadedAddresses) ? meta.loadedAddresses : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return [...statics, ...list(loaded.writable), ...list(loaded.readonly)];
}

/** The wallet's fill for `mint` in a getTransaction JSON answer; null when the answer lacks what it needs. */
export function fillOf(
  transactionJson: unknown,
  input: {
    wallet: string;
    mint: string | null;
    tipAccounts: readonly string[];
    side: "buy" | "sell" | "none";
  },
): Fill | null {
  if (!isObject(transactionJson) || !isObject(transactionJson.meta)) return null;
  const meta = transactionJson.meta;
  const keys = accountKeysOf(transactionJson, meta);
  const pre = Array.isArray(meta.preBalances) ? meta.preBalances.map((x) => BigInt(x as number)) : [];
  const post = Array.isArray(meta.postBalances) ? meta.postBalances.map((x) => BigInt(x as number)) : [];
  const at = keys.indexOf(input.wallet);
  if (at < 0 || pre.length !== keys.length || post.length !== keys.length) return null;
  const change = post[at]! - pre[at]!;
  // The fee payer is the first account key.
  const fee = at === 0 ? BigInt((meta.fee as number | undefined) ?? 0) : 0n;
  const tips = new Set(input.tipAccounts);
  let tip = 0n;
  let rent = 0n;
  keys.forEach((k, i) => {
    if (tips.has(k)) tip += post[i]! - pre[i]!;
    else if (pre[i] === 0n && post[i]! > 0n) rent += post[i]!;
  });
  const held = (list: TokenBalance[]): bigint =>
    list
      .filter((b) => b.owner === input.wallet && b.mint === input.mint)
      .reduce((sum, b) => sum + BigInt(b.uiTokenAmount.amount), 0n);
  const postBalances = tokenBalances(meta.postTokenBalances);
  const after = input.mint === null ? 0n : held(postBalances);
  const tokenChange = input.mint === null ? 0n : after - held(tokenBalances(meta.preTokenBalances));
  const decimals = [...postBalances, ...tokenBalances(meta.preTokenBalances)].find(
    (b) => b.mint === input.mint && typeof b.uiTokenAmount.decimals === "number",
  )?.uiTokenAmount.decimals;
  const costs = fee + tip + rent;
  const tradeSol = input.side === "sell" ? change + costs : input.side === "buy" ? -change - costs : 0n;
  return {
    sol_change_lamports: change.toString(),
    fee_lamports: fee.toString(),
    tip_lamports: tip.toString(),
    rent_lamports: rent.toString(),
    trade_sol_lamports: tradeSol.toString(),
    token_change: tokenChange.toString(),
    ...(input.mint !== null ? { token_balance_after: after.toString() } : {}),
    ...(decimals !== undefined ? { token_decimals: decimals } : {}),
  };
}
