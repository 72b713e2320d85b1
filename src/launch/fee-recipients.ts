/**
 * Fee and buyback recipients of curve trades, picked the way the SDK picks them: uniformly at random from
 * Global's lists, the reserved list for mayhem coins. The program checks membership in Global's lists,
 * so the buyback recipient is taken from `Global.buybackFeeRecipients` too (the SDK uses a hard-coded
 * copy of the mainnet list, which a localnet Global need not match).
 */
import { PublicKey } from "@solana/web3.js";
import type { LaunchGlobal } from "./state.js";

/** A source of uniform numbers in [0, 1); Math.random in production, fixed in tests. */
export type Random = () => number;

function pick(list: readonly PublicKey[], random: Random, what: string): PublicKey {
  // Unset slots of the fixed-size lists hold the zero key; the program would reject it.
  const set = list.filter((k) => !k.equals(PublicKey.default));
  const chosen = set[Math.min(set.length - 1, Math.floor(random() * set.length))];
  if (chosen === undefined) throw new Error(`launch Global has no ${what}`);
  return chosen;
}

/** Protocol fee recipient of a curve trade (reserved recipients for mayhem coins). */
export function curveFeeRecipient(
  global: LaunchGlobal,
  mayhem: boolean,
  random: Random = Math.random,
): PublicKey {
  return mayhem
    ? pick([global.reservedFeeRecipient, ...global.reservedFeeRecipients], random, "reserved fee recipient")
    : pick([global.feeRecipient, ...global.feeRecipients], random, "fee recipient");
}

/** Buyback fee recipient of a curve trade. */
export function curveBuybackRecipient(global: LaunchGlobal, random: Random = Math.random): PublicKey {
  return pick(global.buybackFeeRecipients, random, "buyback fee recipient");
}
