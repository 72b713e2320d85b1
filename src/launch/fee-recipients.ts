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

// The set entries of each list, per decoded Global and computed when first asked for: a pure function of
// the Global object (decoded once per account state and kept while it is unchanged); before, every trade
// filtered the lists again (two arrays and a closure per pick).
type ListName = "fee" | "reserved" | "buyback";
const setLists = new WeakMap<LaunchGlobal, Partial<Record<ListName, PublicKey[]>>>();
function setListOf(global: LaunchGlobal, name: ListName): PublicKey[] {
  let lists = setLists.get(global);
  if (lists === undefined) {
    lists = {};
    setLists.set(global, lists);
  }
  let list = lists[name];
  if (list === undefined) {
    const all =
      name === "fee"
        ? [global.feeRecipient, ...global.feeRecipients]
        : name === "reserved"
          ? [global.reservedFeeRecipient, ...global.reservedFeeRecipients]
          : global.buybackFeeRecipients;
    // Unset slots of the fixed-size lists hold the zero key; the program would reject it.
    list = all.filter((k) => !k.equals(PublicKey.default));
    lists[name] = list;
  }
  return list;
}

function pick(set: readonly PublicKey[], random: Random, what: string): PublicKey {
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
    ? pick(setListOf(global, "reserved"), random, "reserved fee recipient")
    : pick(setListOf(global, "fee"), random, "fee recipient");
}

/** Buyback fee recipient of a curve trade. */
export function curveBuybackRecipient(global: LaunchGlobal, random: Random = Math.random): PublicKey {
  return pick(setListOf(global, "buyback"), random, "buyback fee recipient");
}
