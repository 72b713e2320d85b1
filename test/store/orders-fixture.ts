/** The order record the orders store tests insert (the rest they share with every store test: two-engines.ts). */
import type { NewOrder } from "../../src/store/index.js";
import { unique } from "./two-engines.js";

export { newAccount, storeTestEngines as orderTestEngines, unique } from "./two-engines.js";

/** An open take-profit of `accountId`'s root key, with `over` on top. */
export const order = (accountId: number, over: Partial<NewOrder> = {}): NewOrder => ({
  id: `ord_${unique()}`,
  accountId,
  keyId: accountId,
  kind: "take_profit",
  side: "sell",
  mint: "Mint1111",
  wallet: "Wallet1111",
  spec: "{}",
  expiresAt: null,
  peak: null,
  ...over,
});
