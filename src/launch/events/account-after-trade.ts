/**
 * Account state after a decoded trade event, for the warm venue state (issue 21): the bonding curve with the
 * event's reserves written at their offsets (state.ts curveWithReserves, the offsets checked against the SDK's
 * IDL at load), and a pool vault with its new token amount, encoded by spl-token's AccountLayout. Each is written
 * over a copy of the cached bytes, so what follows (fields of a newer program version, Token-2022 extensions)
 * is kept.
 */
import type { PublicKey } from "@solana/web3.js";
import { ACCOUNT_SIZE, AccountLayout } from "../spl-token.js";
import { curveWithReserves, decodeBondingCurveOnce, type BondingCurveState } from "../state.js";

/** The part of an account the event changes: its lamports and data. */
export interface AccountBytes {
  lamports: bigint;
  data: Buffer;
}

/** A curve's four reserves after a trade, as the curve's TradeEvent reports them. */
export interface CurveReserves {
  virtualTokenReserves: bigint;
  virtualSolReserves: bigint;
  realTokenReserves: bigint;
  realSolReserves: bigint;
}

/**
 * The bonding curve after a trade: its reserves replaced by the event's, every other byte as cached. The curve
 * holds its real SOL reserves in lamports, so lamports move by the same difference. Null when the cached bytes
 * are not a curve the SDK decodes, or the SDK's layout is not the one whose offsets are known (state.ts
 * DIRECT_CURVE_DECODE: the curve is then left to its notification). Synchronous: the event refresh applies it
 * in the same microtask as its event, so the order engine hears of the change before the feed's fan-out runs.
 */
export function curveAfterTrade(cached: AccountBytes, r: CurveReserves): AccountBytes | null {
  let curve: BondingCurveState;
  try {
    // The cached bytes are the warm state's data object, which its notification already decoded: the memo.
    curve = decodeBondingCurveOnce(cached.data);
  } catch {
    return null;
  }
  const data = curveWithReserves(cached.data, {
    virtualTokenReserves: r.virtualTokenReserves,
    virtualQuoteReserves: r.virtualSolReserves,
    realTokenReserves: r.realTokenReserves,
    realQuoteReserves: r.realSolReserves,
  });
  if (data === null) return null;
  return { lamports: cached.lamports + (r.realSolReserves - curve.realQuoteReserves), data };
}

/**
 * A token account (a pool vault) holding `amount`, every other field as cached. A native (WSOL) account holds
 * its amount in lamports too, so they move by the same difference. Null when the cached bytes are not a
 * token account of `mint`.
 */
export function vaultWithAmount(cached: AccountBytes, mint: PublicKey, amount: bigint): AccountBytes | null {
  if (cached.data.length < ACCOUNT_SIZE) return null;
  const raw = AccountLayout.decode(cached.data);
  if (!raw.mint.equals(mint)) return null;
  // The layout's bytes are rewritten in a copy; what follows them (Token-2022 extensions) stays.
  const data = Buffer.from(cached.data);
  AccountLayout.encode({ ...raw, amount }, data);
  const lamports = raw.isNativeOption === 1 ? cached.lamports + (amount - raw.amount) : cached.lamports;
  return { lamports, data };
}
