/**
 * POST /v1/orders with kind copy: the body's rules, the followed wallets (never one of this account's own:
 * two copy orders following each other's wallets would trade back and forth), the key's policy on the buy it
 * would send (mint rules are checked at each fire, the mint being unknown now), the insert under
 * MAX_OPEN_ORDERS_PER_KEY and the engine's copy book; a dry run answers the order and the policy only.
 */
import { badRequest } from "../../core/errors.js";
import type { RequestBody } from "../../core/request-fields.js";
import { mayUseWallet } from "../keys/scopes.js";
import { CUSTODY } from "../keys/texts.js";
import { selectWallet } from "../wallets/wallets.js";
import { parseCopyRequest } from "./copy.js";
import { COPY_MINT, copyTradeSpec } from "./copy-engine.js";
import { COPY_RULES as C } from "./copy-texts.js";
import { copySpecView } from "./copy-view.js";
import type { OrderCaller, OrderServiceDeps } from "./service.js";
import { ANY_MINT, createStanding, standingVerdict } from "./placement.js";

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
    verdict = await standingVerdict(deps, caller, buy, wallet.publicKey);
  } else if (!mayUseWallet(caller.key, wallet.publicKey))
    verdict = { rule: "wallet", detail: CUSTODY.walletNotAllowed(wallet.publicKey) };
  const order = {
    kind: "copy",
    mint: COPY_MINT,
    wallet: wallet.publicKey,
    spec,
    view: copySpecView(spec),
  } as const;
  return createStanding(deps, caller, order, req, verdict, claimId);
}
