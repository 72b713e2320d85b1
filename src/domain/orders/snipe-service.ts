/**
 * POST /v1/orders with kind snipe: the body's rule, the key's policy on the buy it would send (a mint rule is
 * checked at each fire, the mint being unknown now), the insert under MAX_OPEN_ORDERS_PER_KEY and the engine's
 * snipe book; a dry run answers the order and the policy without storing it.
 */
import { ApiError } from "../../core/errors.js";
import type { RequestBody } from "../../core/request-fields.js";
import { selectWallet } from "../wallets/wallets.js";
import { ANY_MINT, createStanding, standingVerdict } from "./placement.js";
import type { OrderCaller, OrderServiceDeps } from "./service.js";
import { parseSnipeRequest } from "./snipe.js";
import { SNIPE_MINT, snipeBuySpec, snipeSpecOf } from "./snipe-engine.js";
import { snipeSpecView } from "./snipe-view.js";
import { SNIPE_RULES as S } from "./snipe-texts.js";

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
  const spec = snipeSpecOf(req);
  const verdict = await standingVerdict(deps, caller, snipeBuySpec(spec, ANY_MINT), wallet.publicKey);
  const order = {
    kind: "snipe",
    mint: SNIPE_MINT,
    wallet: wallet.publicKey,
    spec,
    view: snipeSpecView(spec),
  } as const;
  return createStanding(deps, caller, order, req, verdict, claimId);
}
