/**
 * POST /v1/orders with kind snipe: the body's rule, the key's policy on the buy it would send (a mint rule is
 * checked at each fire, the mint being unknown now), the insert under MAX_OPEN_ORDERS_PER_KEY and the engine's
 * snipe book; a dry run answers the order and the policy without storing it.
 */
import { ApiError } from "../../core/errors.js";
import type { RequestBody } from "../../core/request-fields.js";
import { planRefusal } from "../keys/fire-custody.js";
import { refusal } from "../keys/scopes.js";
import { selectWallet } from "../wallets/wallets.js";
import { orderTrade } from "./fire.js";
import { placeStandingOrder } from "./placement.js";
import type { OrderCaller, OrderServiceDeps } from "./service.js";
import { parseSnipeRequest } from "./snipe.js";
import { SNIPE_MINT, snipeBuySpec, type SnipeSpec } from "./snipe-engine.js";
import { snipeSpecView } from "./snipe-view.js";
import { SNIPE_RULES as S } from "./snipe-texts.js";

/** Mint rules cannot be judged before the mint exists: they are checked at each fire. */
const MINT_RULES = new Set(["mints_allow", "mints_deny"]);
/** A stand-in mint for the creation-time plan (the system program's address: never a launch token). */
const ANY_MINT = "11111111111111111111111111111111";

/** Creates a snipe order (or answers its dry run). */
export async function createSnipe(
  deps: OrderServiceDeps,
  caller: OrderCaller,
  b: RequestBody,
  claimId?: number,
): Promise<unknown> {
  if (b.mint !== undefined) throw new ApiError(400, S.mintGiven);
  const req = parseSnipeRequest(b, deps.fees, deps.clock());
  const wallet = await selectWallet(deps.store, caller.accountId, req.wallet ?? undefined);
  const spec: SnipeSpec = {
    kind: "snipe",
    rule: req.rule,
    lamports: req.lamports,
    amountText: req.amountText,
    slippageBps: req.slippageBps,
    priorityFeeLamports: req.fees.priorityFeeLamports ?? null,
    tipLamports: req.fees.tipLamports ?? null,
  };
  const buy = snipeBuySpec(spec, ANY_MINT);
  const { plan } = orderTrade(buy, wallet.publicKey, deps.relayTipLamports);
  const found = await planRefusal(deps, caller.key, plan, wallet.publicKey);
  const verdict = found !== null && MINT_RULES.has(found.rule) ? null : found;
  if (req.dryRun)
    return {
      dry_run: true,
      policy: { allowed: verdict === null, rule: verdict?.rule ?? null, detail: verdict?.detail ?? null },
      order: { wallet: wallet.publicKey, ...snipeSpecView(spec), expires_at: req.expiresAt },
    };
  if (verdict !== null) throw refusal(verdict.detail, verdict.rule);
  return placeStandingOrder(
    deps,
    caller,
    { kind: "snipe", mint: SNIPE_MINT, wallet: wallet.publicKey, spec, expiresAt: req.expiresAt },
    claimId,
  );
}
