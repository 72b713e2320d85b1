/**
 * Cashback check (spec 4.6): which wallets → one batched account read for all of them → the pure cashback
 * calculation → per-wallet entries, totals and the slot the read was served at. Read-only: nothing is signed.
 */
import { PublicKey } from "@solana/web3.js";
import type { RpcClient } from "../../chain/rpc-client.js";
import { cashbackReadPlan } from "../../launch/cashback-accounts.js";
import { LAUNCH_PROGRAM_ID, SPL_TOKEN_PROGRAM_ID, WSOL_MINT } from "../../launch/programs.js";
import type { Store } from "../../store/index.js";
import {
  type AccountSnapshot,
  cashbackTotals,
  computeCashback,
  type CashbackEntry,
  type CashbackTotals,
  parseCashbackCheckRequest,
} from "./rules.js";
import type { RequestBody } from "../../core/request-fields.js";
import { SPEC, upstreamError } from "../../core/errors.js";
import { rentExemptMinimum } from "../sol/reserve.js";
import { selectWallet } from "../wallets/wallets.js";

/** What the check needs: the key's default wallet and one account read. */
export interface CashbackCheckDeps {
  store: Pick<Store, "findWallet" | "findDefaultWallet">;
  chain: { rpc: Pick<RpcClient, "getMultipleAccounts"> };
}

/** The check response (amounts as bigint; the HTTP layer writes them as JSON integers). */
export interface CashbackCheckResult {
  wallets: CashbackEntry[];
  totals: CashbackTotals;
  rpc_slots: number[];
}

const EXPECTED = {
  launchProgram: LAUNCH_PROGRAM_ID.toBase58(),
  tokenProgram: SPL_TOKEN_PROGRAM_ID.toBase58(),
  nativeMint: WSOL_MINT.toBase58(),
};

/** `POST /v1/cashback/check`: the named wallets (any address) or the key's default wallet. */
export async function checkCashback(
  deps: CashbackCheckDeps,
  apiKeyId: number,
  body: RequestBody,
): Promise<CashbackCheckResult> {
  const request = parseCashbackCheckRequest(body);
  const wallets =
    request.kind === "default"
      ? [(await selectWallet(deps.store, apiKeyId)).publicKey]
      : (request.wallets as readonly string[]);
  return readCashback(deps.chain, wallets);
}

/**
 * Claimable cashback of `wallets` (already deduplicated) from one getMultipleAccounts over both accounts of
 * every wallet (the RPC client splits it past 100 keys, the method's limit). A failed read is the spec's 502.
 */
export async function readCashback(
  chain: { rpc: Pick<RpcClient, "getMultipleAccounts"> },
  wallets: readonly string[],
): Promise<CashbackCheckResult> {
  const plan = cashbackReadPlan(wallets.map((w) => new PublicKey(w)));
  let read: Awaited<ReturnType<RpcClient["getMultipleAccounts"]>>;
  try {
    read = await chain.rpc.getMultipleAccounts(plan.addresses);
  } catch {
    throw upstreamError(SPEC.check.readFailed);
  }
  if (read.value.length !== plan.addresses.length) throw upstreamError(SPEC.check.readFailed);
  const entries = plan.wallets.map((w, i) =>
    computeCashback({
      wallet: w.wallet.toBase58(),
      accounts: {
        launch_user_volume_accumulator: w.launchUserVolumeAccumulator.toBase58(),
        launchswap_user_volume_accumulator: w.launchswapUserVolumeAccumulator.toBase58(),
        launchswap_wsol_ata: w.launchswapWsolAta.toBase58(),
      },
      bondingAccount: snapshot(read.value[2 * i] ?? null),
      swapWsolAccount: snapshot(read.value[2 * i + 1] ?? null),
      rentExemptMinimum,
      expected: EXPECTED,
    }),
  );
  return { wallets: entries, totals: cashbackTotals(entries), rpc_slots: [read.slot] };
}

function snapshot(
  account: { lamports: bigint; owner: PublicKey; data: Uint8Array } | null,
): AccountSnapshot | null {
  return account === null
    ? null
    : { lamports: account.lamports, owner: account.owner.toBase58(), data: account.data };
}
