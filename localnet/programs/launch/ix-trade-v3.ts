/**
 * The October 2026 curve trades `buy_v3`, `buy_exact_quote_in_v3` and `sell_v3` (TRADE_V3.md): the
 * same prices and fee amounts as the legacy trades, 17 accounts, and the protocol fee (minus the
 * buyback part, paid in the trade) and the creator fee kept on the curve in `protocol_fees` /
 * `creator_fee` until a sweep. A v3 buy that empties the curve continues as a synthetic migration
 * (curve-synthetic.ts). Cashback coins are refused (6094). SOL-paired curves only, like the rest of
 * the localnet.
 */
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey, SystemProgram } from "@solana/web3.js";
import type { InstructionAccount } from "../types.js";
import { namedAccounts } from "../upgrade/accounts.js";
import { upgradeSpec } from "../upgrade/instructions.js";
import { LAUNCH_PROGRAM_ID } from "./constants.js";
import { applyBuy, applySell, curveFeeBps, quoteSell } from "./curve-math.js";
import { growCurve, readBuckets, writeBuckets, type CurveBuckets } from "./curve-buckets.js";
import { quoteBuyExactQuoteInV3, quoteBuyV3, type V3Buy, type V3Context } from "./curve-synthetic.js";
import {
  ensureUva,
  loadCurve,
  loadFeeConfig,
  loadGlobal,
  moveFromProgramAccount,
  tokenAccountInfo,
  transferFromUser,
  transferTokens,
  type Exec,
} from "./exec-support.js";
import { anchorFail, programFail } from "./failures.js";
import { checkTokenProgram, mintSupply, rule } from "./ix-trade.js";
import { encodeCurve } from "./layouts.js";
import {
  associatedTokenAddress,
  curveAddress,
  EVENT_AUTHORITY_ADDRESS,
  FEE_CONFIG_ADDRESS,
  GLOBAL_ADDRESS,
  userVolumeAccumulatorAddress,
} from "./pda.js";
import { emitV3Events } from "./trade-v3-events.js";

/** The three v3 trades. */
export type V3Name = "buy_v3" | "buy_exact_quote_in_v3" | "sell_v3";

const LOG_NAMES: Record<V3Name, string> = {
  buy_v3: "BuyV3",
  buy_exact_quote_in_v3: "BuyExactQuoteInV3",
  sell_v3: "SellV3",
};

/** Decoded v3 arguments: (amount | spendable, max_sol_cost | min_tokens_out | min_sol_output, partial_fill). */
export interface V3Args {
  first: bigint;
  second: bigint;
  partialFill: boolean;
}

/** Fails unless `given` is `expected` (Anchor's seeds / address constraints). */
function expectKey(x: Exec, given: PublicKey, expected: PublicKey, name: string, seeds = true): void {
  if (!given.equals(expected)) anchorFail(x.log, seeds ? "ConstraintSeeds" : "ConstraintAddress", name);
}

/** Executes a v3 trade. */
export function executeTradeV3(x: Exec, accounts: InstructionAccount[], name: V3Name, args: V3Args): void {
  x.log(`Program log: Instruction: ${LOG_NAMES[name]}`);
  const a = namedAccounts(upgradeSpec("launch", name), accounts, (e, acc) => anchorFail(x.log, e, acc));
  const mint = a.key("base_mint");
  const user = a.key("user");
  const baseProgram = a.key("base_token_program");
  const curveKey = a.key("bonding_curve");
  expectKey(x, a.key("global"), GLOBAL_ADDRESS, "global");
  expectKey(x, curveKey, curveAddress(mint), "bonding_curve");
  const curveTokens = associatedTokenAddress(curveKey, mint, baseProgram);
  expectKey(x, a.key("associated_base_bonding_curve"), curveTokens, "associated_base_bonding_curve");
  const quoteMint = a.key("quote_mint");
  const quoteProgram = a.key("quote_token_program");
  expectKey(
    x,
    a.key("associated_quote_bonding_curve"),
    associatedTokenAddress(curveKey, quoteMint, quoteProgram),
    "associated_quote_bonding_curve",
  );
  expectKey(
    x,
    a.key("user_volume_accumulator"),
    userVolumeAccumulatorAddress(user),
    "user_volume_accumulator",
  );
  expectKey(x, a.key("fee_config"), FEE_CONFIG_ADDRESS, "fee_config");
  if (!a.key("system_program").equals(SystemProgram.programId))
    anchorFail(x.log, "InvalidProgramId", "system_program");
  expectKey(x, a.key("event_authority"), EVENT_AUTHORITY_ADDRESS, "event_authority");
  expectKey(x, a.key("program"), LAUNCH_PROGRAM_ID, "program", false);

  const global = loadGlobal(x, GLOBAL_ADDRESS);
  const feeConfig = loadFeeConfig(x, FEE_CONFIG_ADDRESS);
  const { curve } = loadCurve(x, curveKey);
  checkTokenProgram(x, mint, baseProgram);
  if (!curve.quoteMint.equals(PublicKey.default))
    throw new Error("the localnet emulates SOL-paired curves only");
  // SOL-paired coins pass wrapped SOL as the quote mint (and SPL Token as its program).
  expectKey(x, quoteMint, NATIVE_MINT, "quote_mint", false);
  expectKey(x, quoteProgram, TOKEN_PROGRAM_ID, "quote_token_program", false);
  if (curve.complete) programFail(x.log, 6005);
  if (curve.virtualTokenReserves === 0n) programFail(x.log, 6081);
  if (curve.isCashbackCoin) programFail(x.log, 6094);
  const buyback = a.key("buyback_fee_recipient");
  if (!global.buybackFeeRecipients.some((k) => k.equals(buyback))) programFail(x.log, 6057);
  // The buyback recipient is never created by the trade (TRADE_V3.md): it must exist.
  if (!x.ledger.getAccount(buyback)) anchorFail(x.log, "AccountNotInitialized", "buyback_fee_recipient");
  const userToken = a.key("associated_base_user");
  const info = tokenAccountInfo(x, userToken);
  if (!info) anchorFail(x.log, "AccountNotInitialized", "associated_base_user");
  if (!info.mint.equals(mint)) anchorFail(x.log, "ConstraintTokenMint", "associated_base_user");
  if (!info.owner.equals(user)) anchorFail(x.log, "ConstraintTokenOwner", "associated_base_user");

  const bps = curveFeeBps(curve, global, feeConfig, mintSupply(x, mint));
  const ctx: V3Context = {
    curveTokenBalance: tokenBalance(x, curveTokens),
    migrationFee: global.poolMigrationFee,
    buybackBps: global.buybackBasisPoints,
    mayhem: curve.isMayhemMode,
    partialFill: args.partialFill,
  };
  const isBuy = name !== "sell_v3";
  const trade: V3Buy = rule(x, () =>
    name === "buy_v3"
      ? quoteBuyV3(curve, args.first, args.second, bps, ctx)
      : name === "buy_exact_quote_in_v3"
        ? quoteBuyExactQuoteInV3(curve, args.first, args.second, bps, ctx)
        : { curve: quoteSell(curve, args.first, args.second, bps, global.buybackBasisPoints), pool: null },
  );
  const t = trade.curve;
  const p = trade.pool;
  // The account grows to the current layout on its first new-style trade; the trader pays the rent.
  const grown = growCurve(x, curveKey, user);
  const before: CurveBuckets = readBuckets(grown);
  const kept = {
    protocol: t.protocolFee - t.buybackFee + (p ? p.protocolFee - p.buybackFee : 0n),
    creator: t.creatorFee + (p?.creatorFee ?? 0n),
  };
  ensureUva(x, user, user);
  if (isBuy) {
    const toCurve = t.curveLamports + (p?.quoteIn ?? 0n) + kept.protocol + kept.creator;
    transferFromUser(x, user, curveKey, toCurve);
    transferFromUser(x, user, buyback, t.buybackFee + (p?.buybackFee ?? 0n));
    const tokens = t.tokens + (p?.baseOut ?? 0n);
    transferTokens(x, {
      source: curveTokens,
      mint,
      destination: userToken,
      owner: curveKey,
      amount: tokens,
      tokenProgram: baseProgram,
    });
  } else {
    transferTokens(x, {
      source: userToken,
      mint,
      destination: curveTokens,
      owner: user,
      amount: t.tokens,
      tokenProgram: baseProgram,
    });
    moveFromProgramAccount(x, curveKey, user, t.curveLamports - t.protocolFee - t.creatorFee);
    moveFromProgramAccount(x, curveKey, buyback, t.buybackFee);
  }
  const after = isBuy ? applyBuy(curve, t) : applySell(curve, t);
  const buckets: CurveBuckets = {
    ...before,
    protocolFees: before.protocolFees + kept.protocol,
    creatorFee: before.creatorFee + kept.creator,
    postCompleteBaseOut: p ? p.baseOut : before.postCompleteBaseOut,
    postCompleteQuoteIn: p ? p.quoteIn : before.postCompleteQuoteIn,
  };
  const acc = x.ledger.getAccount(curveKey)!;
  x.ledger.setAccount(curveKey, { ...acc, data: writeBuckets(encodeCurve(after, acc.data), buckets) });
  emitV3Events(x, {
    name,
    mint,
    curveKey,
    user,
    curve,
    after,
    trade,
    bps,
    global,
    buckets,
    completed: after.complete && !curve.complete,
  });
}

function tokenBalance(x: Exec, account: PublicKey): bigint {
  const acc = x.ledger.getAccount(account);
  if (!acc || acc.data.length < 72) return 0n;
  return new DataView(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength).getBigUint64(64, true);
}
