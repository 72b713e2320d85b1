/**
 * The swap program's permissionless `sweep_protocol_fee` / `sweep_creator_fee` (SWEEP_FEES.md): pays
 * the fee v2 trades kept in the pool's quote vault to a protocol fee recipient (a reserved one for
 * mayhem pools) or the coin creator vault authority's quote ATA (created when missing, payer pays),
 * empties the bucket and adds the amount back to `virtual_quote_reserves`, so the effective reserves
 * (and the price) do not move. Logs `SweepPoolFeeEvent`; nothing waiting, nothing happens.
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import type { InstructionContext } from "../types.js";
import { namedAccounts } from "../upgrade/accounts.js";
import { SWEEP_BUCKET, sweepPoolFeeLine } from "../upgrade/events.js";
import { upgradeSpec } from "../upgrade/instructions.js";
import { ANCHOR, fail } from "./account-check.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  GLOBAL_CONFIG,
  SWAP_EVENT_AUTHORITY,
  SWAP_PROGRAM_ID,
  ata,
} from "./addresses.js";
import { SWAP_ERR, swapFail } from "./errors.js";
import { coinCreatorVaultAuthority } from "./migrate.js";
import { growPool, readPoolFeeState, storePoolFeeState } from "./pool-buckets.js";
import { loadGlobalConfig, loadPool } from "./state.js";
import { ensureAta, readMint, transferTokens } from "./token-io.js";

/** Executes the pool's `sweep_protocol_fee` or `sweep_creator_fee`. */
export function executePoolSweep(ctx: InstructionContext, kind: "protocol" | "creator"): void {
  const name = kind === "protocol" ? "sweep_protocol_fee" : "sweep_creator_fee";
  ctx.log(`Program log: Instruction: ${kind === "protocol" ? "SweepProtocolFee" : "SweepCreatorFee"}`);
  const { ledger } = ctx;
  const a = namedAccounts(upgradeSpec("launchswap", name), ctx.accounts, (e, acc) => fail(ANCHOR[e], e, acc));
  const same = (given: PublicKey, want: PublicKey, code: number, err: string, account: string) => {
    if (!given.equals(want)) fail(code, err, account);
  };
  const payer = a.key("payer");
  const poolKey = a.key("pool");
  same(a.key("global_config"), GLOBAL_CONFIG, ANCHOR.ConstraintSeeds, "ConstraintSeeds", "global_config");
  const gc = loadGlobalConfig(ledger, GLOBAL_CONFIG);
  const pool = loadPool(ledger, poolKey);
  same(a.key("quote_mint"), pool.quote_mint, ANCHOR.ConstraintHasOne, "ConstraintHasOne", "quote_mint");
  same(
    a.key("pool_quote_token_account"),
    pool.pool_quote_token_account,
    ANCHOR.ConstraintHasOne,
    "ConstraintHasOne",
    "pool_quote_token_account",
  );
  const quoteProgram = a.key("quote_token_program");
  const quoteMint = readMint(ledger, pool.quote_mint);
  if (!quoteMint || !quoteMint.tokenProgram.equals(quoteProgram))
    fail(ANCHOR.ConstraintMintTokenProgram, "ConstraintMintTokenProgram", "quote_mint");
  same(
    a.key("system_program"),
    SystemProgram.programId,
    ANCHOR.InvalidProgramId,
    "InvalidProgramId",
    "system_program",
  );
  same(
    a.key("associated_token_program"),
    ASSOCIATED_TOKEN_PROGRAM_ID,
    ANCHOR.InvalidProgramId,
    "InvalidProgramId",
    "associated_token_program",
  );
  same(
    a.key("event_authority"),
    SWAP_EVENT_AUTHORITY,
    ANCHOR.ConstraintSeeds,
    "ConstraintSeeds",
    "event_authority",
  );
  same(a.key("program"), SWAP_PROGRAM_ID, ANCHOR.ConstraintAddress, "ConstraintAddress", "program");

  const recipient = a.key("recipient");
  if (kind === "protocol") {
    const allowed = pool.is_mayhem_mode
      ? [gc.reserved_fee_recipient, ...gc.reserved_fee_recipients]
      : gc.protocol_fee_recipients;
    if (recipient.equals(PublicKey.default) || !allowed.some((r) => r.equals(recipient)))
      swapFail(SWAP_ERR.InvalidProtocolFeeRecipient);
  } else {
    same(
      recipient,
      coinCreatorVaultAuthority(pool.coin_creator),
      ANCHOR.ConstraintSeeds,
      "ConstraintSeeds",
      "recipient",
    );
  }
  const recipientAta = ata(recipient, pool.quote_mint, quoteProgram);
  same(
    a.key("recipient_token_account"),
    recipientAta,
    ANCHOR.ConstraintSeeds,
    "ConstraintSeeds",
    "recipient_token_account",
  );

  growPool(ledger, poolKey, payer);
  const state = readPoolFeeState(ledger.getAccount(poolKey)!.data);
  const amount = kind === "protocol" ? state.protocolFees : state.creatorFees;
  if (amount === 0n) return;
  ensureAta(ledger, payer, recipient, pool.quote_mint, quoteProgram);
  transferTokens(ledger, {
    from: pool.pool_quote_token_account,
    to: recipientAta,
    mint: pool.quote_mint,
    authority: poolKey,
    amount,
    decimals: quoteMint.decimals,
    tokenProgram: quoteProgram,
  });
  storePoolFeeState(ledger, poolKey, {
    virtualQuoteReserves: state.virtualQuoteReserves + amount,
    protocolFees: kind === "protocol" ? 0n : state.protocolFees,
    creatorFees: kind === "creator" ? 0n : state.creatorFees,
  });
  ctx.log(
    sweepPoolFeeLine({
      timestamp: ledger.clock().unixTimestamp,
      pool: poolKey,
      baseMint: pool.base_mint,
      quoteMint: pool.quote_mint,
      recipient,
      payer,
      amount,
      bucket: SWEEP_BUCKET[kind],
    }),
  );
}
