/** The wallets of a bundle: every leg's wallet resolved against the key before any chain access. */
import type { Store, WalletRecord } from "../../store/index.js";
import { ApiError } from "../../core/errors.js";
import { selectWallet } from "../wallets/wallets.js";

/**
 * The wallet of each leg, in order: the named one (must belong to the key) or the key's default. A leg
 * naming a wallet the key does not hold fails the whole request before anything is read or signed, with the
 * same 404 `wallet not found` as every other endpoint plus the zero-based `index` of the offending leg.
 */
export async function resolveLegWallets(
  store: Pick<Store, "findWallet" | "findDefaultWallet">,
  apiKeyId: number,
  legs: readonly { wallet?: string }[],
): Promise<WalletRecord[]> {
  const out: WalletRecord[] = [];
  let fallback: WalletRecord | undefined;
  for (const [index, leg] of legs.entries()) {
    if (leg.wallet === undefined) {
      fallback ??= await selectWallet(store, apiKeyId);
      out.push(fallback);
      continue;
    }
    try {
      out.push(await selectWallet(store, apiKeyId, leg.wallet));
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(e.status, e.detail, { ...e.extra, index });
      throw e;
    }
  }
  return out;
}
