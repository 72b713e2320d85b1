/**
 * POST /v1/orders with kind copy: the body's rules, the followed wallets (never one of this account's own:
 * two copy orders following each other's wallets would trade back and forth), the key's policy on the buy it
 * would send (mint rules are checked at each fire, the mint being unknown now), the insert under
 * MAX_OPEN_ORDERS_PER_KEY and the engine's copy book; a dry run answers the order and the policy only.
 */
import { badRequest } from "../../core/errors.js";
import type { RequestBody } from "../../core/request-fields.js";
import { planRefusal } from "../keys/fire-custody.js";
import { mayUseWallet, refusal } from "../keys/scopes.js";
import { CUSTODY } from "../keys/texts.js";
import { selectWallet } from "../wallets/wallets.js";
import { parseCopyRequest } from "./copy.js";
import { COPY_MINT, copyTradeSpec } from "./copy-engine.js";
import { COPY_RULES as C } from "./copy-texts.js";
import { copySpecView } from "./copy-view.js";
import { orderTrade } from "./fire.js";
import type { OrderCaller, OrderServiceDeps } from "./service.js";
import { placeStandingOrder } from "./placement.js";

/** Mint rules cannot be judged before the mint is known: they are checked at each fire. */
const MINT_RULES = new Set(["mints_allow", "mints_deny"]);
/** A stand-in mint for the creation-time plan (the system program's address: never a launch token). */
const ANY_MINT = "11111111111111111111111111111111";

/** Creates a copy order (or answers its dry run). */
export async function createCopy(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  b: RequestBody,
  claimId?: number,
): Promise<unknown> {
  const req = parseCopyRequest(b, deps.fees, deps.clock());
  const spec = req.spec;
  const wallet = await selectWallet(deps.store, caller.accountId, req.wallet ?? undefined);
  const own = new Set((await deps.store.listWallets(caller.accountId)).map((w) => w.publicKey));
  own.add(wallet.publicKey);
  const mine = spec.follow.find((f) => own.has(f));
  if (mine !== undefined) throw badRequest(C.followOwn(mine));
  // The policy on a buy of the fixed amount (a ratio's size is known at each fire, where it is checked again).
  let verdict = null;
  if (spec.sizing.kind === "sol" && spec.sides !== "sells") {
    const buy = copyTradeSpec(spec, "buy", ANY_MINT, b.amount === undefined ? "0" : String(b.amount).trim());
    const { plan } = orderTrade(buy, wallet.publicKey, deps.relayTipLamports);
    const found = await planRefusal(deps, caller.key, plan, wallet.publicKey);
    verdict = found !== null && MINT_RULES.has(found.rule) ? null : found;
  } else if (!mayUseWallet(caller.key, wallet.publicKey))
    verdict = { rule: "wallet", detail: CUSTODY.walletNotAllowed(wallet.publicKey) };
  if (req.dryRun)
    return {
      dry_run: true,
      policy: { allowed: verdict === null, rule: verdict?.rule ?? null, detail: verdict?.detail ?? null },
      order: { wallet: wallet.publicKey, ...copySpecView(spec), expires_at: req.expiresAt },
    };
  if (verdict !== null) throw refusal(verdict.detail, verdict.rule);
  return placeStandingOrder(
    deps,
    caller,
    { kind: "copy", mint: COPY_MINT, wallet: wallet.publicKey, spec, expiresAt: req.expiresAt },
    claimId,
  );
}
