/** Reading and writing launch state from outside the program (operator helpers, the swap program's migrate). */
import type { PublicKey } from "@solana/web3.js";
import type { LedgerAccess } from "../types.js";
import {
  decodeCurve,
  decodeGlobal,
  decodeFeeConfig,
  encodeCurve,
  type Curve,
  type FeeConfigState,
  type GlobalState,
} from "./layouts.js";
import { curveAddress } from "./pda.js";
import { FEE_CONFIG_ADDRESS, GLOBAL_ADDRESS } from "./pda.js";

/** The bonding curve of `mint`, or null when it does not exist. */
export function readCurve(ledger: LedgerAccess, mint: PublicKey): Curve | null {
  const acc = ledger.getAccount(curveAddress(mint));
  return acc ? decodeCurve(acc.data) : null;
}

/** Rewrites the curve of `mint` (keeps lamports, owner and any bytes past the known layout). */
export function writeCurve(ledger: LedgerAccess, mint: PublicKey, curve: Curve): void {
  const key = curveAddress(mint);
  const acc = ledger.getAccount(key);
  if (!acc) throw new Error(`no bonding curve for mint ${mint.toBase58()}`);
  ledger.setAccount(key, { ...acc, data: encodeCurve(curve, acc.data) });
}

/** The program's Global. */
export function readGlobal(ledger: LedgerAccess): GlobalState {
  const acc = ledger.getAccount(GLOBAL_ADDRESS);
  if (!acc) throw new Error("launch Global missing (genesis not installed)");
  return decodeGlobal(acc.data);
}

/** The bonding-curve FeeConfig. */
export function readFeeConfig(ledger: LedgerAccess): FeeConfigState {
  const acc = ledger.getAccount(FEE_CONFIG_ADDRESS);
  if (!acc) throw new Error("launch FeeConfig missing (genesis not installed)");
  return decodeFeeConfig(acc.data);
}
