import { createRequire } from "node:module";
import { installBase58Memo } from "./base58-memo.js";
import { installPdaMemo } from "./pda-memo.js";

// The SDKs' ESM builds import `BN` from @coral-xyz/anchor's ESM entry, which does not export it;
// their CommonJS builds load fine, so both the service and the localnet load them through require.
const require = createRequire(import.meta.url);

// Every SDK builder derives its PDAs through PublicKey.findProgramAddressSync: memoize it once for the
// process, before any builder runs (see pda-memo.ts); the same instances then also keep their base-58 text.
installPdaMemo();
installBase58Memo();

/** The bonding-curve program's official SDK (`@pump-fun/pump-sdk`). */
export const launchSdk = require("@pump-fun/pump-sdk") as typeof import("@pump-fun/pump-sdk");

/** The swap program's official SDK (`@pump-fun/pump-swap-sdk`). */
export const launchSwapSdk = require("@pump-fun/pump-swap-sdk") as typeof import("@pump-fun/pump-swap-sdk");
