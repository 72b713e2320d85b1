/**
 * Offline Anchor clients of the two programs, for the instructions the SDKs have no builder for
 * (buy_exact_sol_in, swap claim_cashback, a cashback create_v2). Offline: they only encode, never fetch.
 */
import type { Connection } from "@solana/web3.js";
import { launchSdk, launchSwapSdk } from "./sdk.js";

// The SDK's own factory takes a Connection only to build a provider; no call of ours reaches it.
const NO_CONNECTION = null as unknown as Connection;

/** The launch program's offline Anchor client (IDL shipped in the SDK). */
export const launchProgram = launchSdk.getPumpProgram(NO_CONNECTION);

/** The swap program's offline Anchor client (IDL shipped in the swap SDK). */
export const launchSwapProgram = launchSwapSdk.OFFLINE_PUMP_AMM_PROGRAM;
