/** Operator helpers behind the localnet's admin routes: create a token, complete a curve, set cashback. */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
} from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import type { AdminLedger } from "../types.js";
import { FEE_RECIPIENTS, RESERVED_FEE_RECIPIENTS, UVA_ACCOUNT_SIZE } from "./constants.js";
import { curveFeeBps, quoteBuyExactTokens } from "./curve-math.js";
import { buildBuyIx, buildCreateV2Ix } from "./ix-builders.js";
import { decodeUva, emptyUva, encodeUva, isUvaData } from "./layouts.js";
import { LAUNCH_PROGRAM_ID } from "./constants.js";
import { userVolumeAccumulatorAddress } from "./pda.js";
import { readCurve, readFeeConfig, readGlobal } from "./state-access.js";

/** Options of `createToken`. */
export interface CreateTokenOptions {
  name?: string;
  symbol?: string;
  uri?: string;
  mayhem?: boolean;
  cashback?: boolean;
  /** Creator wallet (default: the ledger's operator). The operator always pays. */
  creator?: Keypair;
}

/** Creates a launch coin with create_v2 (fresh mint keypair, operator paying); returns mint and creator. */
export function createToken(
  ledger: AdminLedger,
  opts: CreateTokenOptions = {},
): { mint: PublicKey; creator: PublicKey } {
  const mint = Keypair.generate().publicKey;
  const creator = (opts.creator ?? ledger.operator).publicKey;
  ledger.execute([
    buildCreateV2Ix({
      mint,
      user: ledger.operator.publicKey,
      creator,
      name: opts.name ?? "Localnet Coin",
      symbol: opts.symbol ?? "LOCAL",
      uri: opts.uri ?? "https://localnet.invalid/coin.json",
      mayhem: opts.mayhem ?? false,
      cashback: opts.cashback ?? false,
    }),
  ]);
  return { mint, creator };
}

/** Buys the curve's remaining real token reserves with a freshly funded wallet, completing it. */
export function completeCurve(ledger: AdminLedger, mint: PublicKey): void {
  const curve = readCurve(ledger, mint);
  if (!curve) throw new Error(`no bonding curve for mint ${mint.toBase58()}`);
  if (curve.complete) return;
  const global = readGlobal(ledger);
  const bps = curveFeeBps(curve, global, readFeeConfig(ledger), curve.tokenTotalSupply);
  const t = quoteBuyExactTokens(curve, curve.realTokenReserves, 2n ** 63n, bps, global.buybackBasisPoints);
  const cost = t.curveLamports + t.protocolFee + t.creatorFee;
  const buyer = Keypair.generate().publicKey;
  // Cost plus every rent the buy may pay (token account, accumulator, creator vault top-up).
  ledger.fund(buyer, cost + 1_000_000_000n);
  ledger.execute([
    createAssociatedTokenAccountIdempotentInstruction(
      buyer,
      getAssociatedTokenAddressSync(mint, buyer, true, TOKEN_2022_PROGRAM_ID),
      buyer,
      mint,
      TOKEN_2022_PROGRAM_ID,
    ),
    buildBuyIx({
      mint,
      user: buyer,
      creator: curve.creator,
      feeRecipient: (curve.isMayhemMode ? RESERVED_FEE_RECIPIENTS : FEE_RECIPIENTS)[0]!,
      amount: curve.realTokenReserves,
      limit: cost,
    }),
  ]);
}

/**
 * Makes `user` hold exactly `lamports` of claimable bonding-curve cashback: their pump user volume
 * accumulator (created when missing) holds rent + `lamports`, and cashback_earned = claimed + `lamports`.
 */
export function setBondingCashback(ledger: AdminLedger, user: PublicKey, lamports: bigint): void {
  const key = userVolumeAccumulatorAddress(user);
  const acc = ledger.getAccount(key);
  const existing = acc && acc.owner.equals(LAUNCH_PROGRAM_ID) && isUvaData(acc.data) ? acc : null;
  const uva = existing ? decodeUva(existing.data) : emptyUva(user);
  const data = encodeUva({ ...uva, cashbackEarned: uva.totalCashbackClaimed + lamports }, existing?.data);
  const size = existing ? existing.data.length : UVA_ACCOUNT_SIZE;
  ledger.setAccount(key, {
    lamports: ledger.rentExemptMinimum(size) + lamports,
    data,
    owner: LAUNCH_PROGRAM_ID,
    executable: false,
  });
}
