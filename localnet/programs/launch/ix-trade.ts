/** The curve trades: buy, buy_exact_sol_in and sell (reference D.1–D.3, D.7). */
import { PublicKey } from "@solana/web3.js";
import type { InstructionAccount } from "../types.js";
import { acct, checkAccounts, idlInstruction, type CheckedAccounts } from "./account-checks.js";
import {
  applyBuy,
  applySell,
  curveFeeBps,
  CurveRuleError,
  quoteBuyExactSolIn,
  quoteBuyExactTokens,
  quoteSell,
  type TradeAmounts,
} from "./curve-math.js";
import { emitEvent } from "./events.js";
import {
  ensureUva,
  loadCurve,
  loadFeeConfig,
  loadGlobal,
  moveFromProgramAccount,
  saveUva,
  tokenAccountInfo,
  transferFromUser,
  transferTokens,
  writeData,
  type Exec,
} from "./exec-support.js";
import { anchorFail, builtinFail, programFail } from "./failures.js";
import { encodeCurve, type Curve, type GlobalState } from "./layouts.js";
import { curveV2Address, userVolumeAccumulatorAddress } from "./pda.js";

type TradeKind = "buy" | "buy_exact_sol_in" | "sell";

/** Decoded trade arguments (bigint). */
export interface TradeArgs {
  kind: TradeKind;
  /** buy: amount; buy_exact_sol_in: spendable_sol_in; sell: amount. */
  first: bigint;
  /** buy: max_sol_cost; buy_exact_sol_in: min_tokens_out; sell: min_sol_output. */
  second: bigint;
  trackVolume: boolean;
}

/** Reads a token mint's supply (offset 36 in SPL / Token-2022 mints). */
export function mintSupply(x: Exec, mint: PublicKey): bigint {
  const acc = x.ledger.getAccount(mint);
  if (!acc || acc.data.length < 82) anchorFail(x.log, "AccountNotInitialized", "mint");
  return new DataView(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength).getBigUint64(36, true);
}

function checkFeeRecipient(x: Exec, global: GlobalState, curve: Curve, feeRecipient: PublicKey): void {
  const allowed = curve.isMayhemMode
    ? [global.reservedFeeRecipient, ...global.reservedFeeRecipients]
    : [global.feeRecipient, ...global.feeRecipients];
  if (!allowed.some((k) => k.equals(feeRecipient)))
    programFail(x.log, 6000, "fee recipient not in Global list");
}

/** Splits remaining accounts into [optional cashback UVA], bonding_curve_v2, buyback recipient, checking each. */
function checkRemaining(
  x: Exec,
  global: GlobalState,
  mint: PublicKey,
  remaining: InstructionAccount[],
): { cashbackSlot: InstructionAccount | null; buyback: PublicKey } {
  if (remaining.length < 2) programFail(x.log, 6062, "buyback fee recipient missing");
  const offset = remaining.length >= 3 ? 1 : 0;
  const v2 = remaining[offset]!;
  const buyback = remaining[offset + 1]!;
  if (!v2.pubkey.equals(curveV2Address(mint))) programFail(x.log, 6074);
  if (!global.buybackFeeRecipients.some((k) => k.equals(buyback.pubkey))) programFail(x.log, 6057);
  if (!buyback.isWritable) anchorFail(x.log, "ConstraintMut", "buyback_fee_recipient");
  return { cashbackSlot: offset === 1 ? remaining[0]! : null, buyback: buyback.pubkey };
}

/** The mint's token program must be the instruction's token program (the real CPI would fail otherwise). */
export function checkTokenProgram(x: Exec, mint: PublicKey, tokenProgram: PublicKey): void {
  const m = x.ledger.getAccount(mint);
  if (!m) anchorFail(x.log, "AccountNotInitialized", "mint");
  if (!m.owner.equals(tokenProgram))
    builtinFail(
      x.log,
      "IncorrectProgramId",
      `token program ${tokenProgram.toBase58()} does not own mint ${mint.toBase58()}`,
    );
}

export function rule<T>(x: Exec, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CurveRuleError) programFail(x.log, e.code, e.message);
    throw e;
  }
}

/** Executes buy / buy_exact_sol_in / sell. */
export function executeTrade(x: Exec, accounts: InstructionAccount[], args: TradeArgs): void {
  const spec = idlInstruction(args.kind);
  const logName = { buy: "Buy", buy_exact_sol_in: "BuyExactSolIn", sell: "Sell" }[args.kind];
  x.log(`Program log: Instruction: ${logName}`);
  const checked: CheckedAccounts = checkAccounts(spec, accounts, x.programId, x.ledger, x.log);
  const a = (n: string) => acct(checked, n).pubkey;
  const mint = a("mint");
  const user = a("user");
  const curveKey = a("bonding_curve");
  const tokenProgram = a("token_program");
  const global = loadGlobal(x, a("global"));
  const feeConfig = loadFeeConfig(x, a("fee_config"));
  const { curve, data: curveData } = loadCurve(x, curveKey);
  checkTokenProgram(x, mint, tokenProgram);
  if (curve.complete) programFail(x.log, 6005);
  if (curve.virtualTokenReserves === 0n) programFail(x.log, 6081);
  checkFeeRecipient(x, global, curve, a("fee_recipient"));
  const { cashbackSlot, buyback } = checkRemaining(x, global, mint, checked.remaining);

  const userToken = a("associated_user");
  const info = tokenAccountInfo(x, userToken);
  if (!info) anchorFail(x.log, "AccountNotInitialized", "associated_user");
  if (!info.mint.equals(mint)) anchorFail(x.log, "ConstraintTokenMint", "associated_user");
  if (!info.owner.equals(user)) anchorFail(x.log, "ConstraintTokenOwner", "associated_user");

  const bps = curveFeeBps(curve, global, feeConfig, mintSupply(x, mint));
  const isBuy = args.kind !== "sell";
  const t: TradeAmounts = rule(x, () =>
    args.kind === "buy"
      ? quoteBuyExactTokens(curve, args.first, args.second, bps, global.buybackBasisPoints)
      : args.kind === "buy_exact_sol_in"
        ? quoteBuyExactSolIn(curve, args.first, args.second, bps, global.buybackBasisPoints)
        : quoteSell(curve, args.first, args.second, bps, global.buybackBasisPoints),
  );
  const creatorVault = a("creator_vault");
  const feeRecipient = a("fee_recipient");
  const curveTokens = a("associated_bonding_curve");
  let cashback = 0n;

  if (isBuy) {
    // init_if_needed user_volume_accumulator, paid by the user.
    const uva = ensureUva(x, user, user);
    transferFromUser(x, user, curveKey, t.curveLamports);
    transferFromUser(x, user, feeRecipient, t.protocolFee - t.buybackFee);
    transferFromUser(x, user, buyback, t.buybackFee);
    if (curve.isCashbackCoin) {
      cashback = t.creatorFee;
      transferFromUser(x, user, userVolumeAccumulatorAddress(user), cashback);
      saveUva(x, user, { ...uva, cashbackEarned: uva.cashbackEarned + cashback });
    } else if (t.creatorFee > 0n) {
      // The vault is a system account: the first fee must leave it rent-exempt, so the user tops it up.
      const vaultLamports = x.ledger.getAccount(creatorVault)?.lamports ?? 0n;
      const rent = x.ledger.rentExemptMinimum(0);
      const topUp = vaultLamports + t.creatorFee < rent ? rent - vaultLamports - t.creatorFee : 0n;
      transferFromUser(x, user, creatorVault, t.creatorFee + topUp);
    }
    transferTokens(x, {
      source: curveTokens,
      mint,
      destination: userToken,
      owner: curveKey,
      amount: t.tokens,
      tokenProgram,
    });
  } else {
    transferTokens(x, {
      source: userToken,
      mint,
      destination: curveTokens,
      owner: user,
      amount: t.tokens,
      tokenProgram,
    });
    const net = t.curveLamports - t.protocolFee - t.creatorFee;
    moveFromProgramAccount(x, curveKey, user, net);
    moveFromProgramAccount(x, curveKey, feeRecipient, t.protocolFee - t.buybackFee);
    moveFromProgramAccount(x, curveKey, buyback, t.buybackFee);
    const uvaKey = userVolumeAccumulatorAddress(user);
    if (curve.isCashbackCoin && cashbackSlot) {
      if (!cashbackSlot.pubkey.equals(uvaKey)) programFail(x.log, 6073);
      if (!cashbackSlot.isWritable) anchorFail(x.log, "ConstraintMut", "user_volume_accumulator");
      const uva = ensureUva(x, user, user);
      cashback = t.creatorFee;
      moveFromProgramAccount(x, curveKey, uvaKey, cashback);
      saveUva(x, user, { ...uva, cashbackEarned: uva.cashbackEarned + cashback });
    } else {
      moveFromProgramAccount(x, curveKey, creatorVault, t.creatorFee);
    }
  }

  const after = isBuy ? applyBuy(curve, t) : applySell(curve, t);
  writeData(x, curveKey, encodeCurve(after, curveData));
  const clock = x.ledger.clock();
  emitEvent(x.log, "TradeEvent", {
    mint,
    solAmount: t.curveLamports,
    tokenAmount: t.tokens,
    isBuy,
    user,
    timestamp: clock.unixTimestamp,
    virtualSolReserves: after.virtualQuoteReserves,
    virtualTokenReserves: after.virtualTokenReserves,
    realSolReserves: after.realQuoteReserves,
    realTokenReserves: after.realTokenReserves,
    feeRecipient,
    feeBasisPoints: bps.protocolBps,
    fee: t.protocolFee,
    creator: curve.creator,
    creatorFeeBasisPoints: curve.isCashbackCoin ? 0n : bps.creatorBps,
    creatorFee: cashback > 0n ? 0n : t.creatorFee,
    trackVolume: args.trackVolume,
    totalUnclaimedTokens: 0n,
    totalClaimedTokens: 0n,
    currentSolVolume: 0n,
    lastUpdateTimestamp: 0n,
    ixName: args.kind,
    mayhemMode: curve.isMayhemMode,
    cashbackFeeBasisPoints: curve.isCashbackCoin ? bps.creatorBps : 0n,
    cashback,
    buybackFeeBasisPoints: global.buybackBasisPoints,
    buybackFee: t.buybackFee,
    shareholders: [],
    quoteMint: curve.quoteMint,
    quoteAmount: t.curveLamports,
    virtualQuoteReserves: after.virtualQuoteReserves,
    realQuoteReserves: after.realQuoteReserves,
    holderRewardsBps: 0n,
    holderRewards: 0n,
  });
  if (after.complete && !curve.complete) {
    emitEvent(x.log, "CompleteEvent", {
      user,
      mint,
      bondingCurve: curveKey,
      timestamp: clock.unixTimestamp,
      quoteMint: curve.quoteMint,
    });
  }
}
