/**
 * Fixed addresses and mainnet-like genesis values of the emulated bonding-curve program.
 * Fee-recipient lists are public (pump-public-docs FEE_RECIPIENTS.md); the buyback list equals the one
 * hard-coded in pump-sdk's `getStaticRandomFeeRecipientForBuyback` (a test checks it against the SDK).
 */
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../../src/launch/sdk.js";

export const LAUNCH_PROGRAM_ID = launchSdk.PUMP_PROGRAM_ID;
export const FEE_PROGRAM_ID = launchSdk.PUMP_FEE_PROGRAM_ID;
export const MAYHEM_PROGRAM_ID = launchSdk.MAYHEM_PROGRAM_ID;

/** Normal protocol fee recipients: Global.fee_recipient then Global.fee_recipients[7]. */
export const FEE_RECIPIENTS: readonly PublicKey[] = [
  "62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV",
  "7VtfL8fvgNfhz17qKRMjzQEXgbdpnHHHQRh54R9jP2RJ",
  "7hTckgnGnLQR6sdH7YkqFTAA7VwTfYFaZ6EhEsU3saCX",
  "9rPYyANsfQZw3DnDmKE3YCQF5E8oD89UXoHn9JFEhJUz",
  "AVmoTthdrX6tKt4nDjco2D775W2YK3sDhxPcMmzUAmTY",
  "CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM",
  "FWsW1xNtWscwNmKv6wVsU1iTzRN6wmmk3MjxRP5tT7hz",
  "G5UZAVbAf46s7cKWoyKu8kYTip9DGTpbLZ2qa9Aq69dP",
].map((k) => new PublicKey(k));

/** Mayhem-coin fee recipients: Global.reserved_fee_recipient then Global.reserved_fee_recipients[7]. */
export const RESERVED_FEE_RECIPIENTS: readonly PublicKey[] = [
  "GesfTA3X2arioaHp8bbKdjG9vJtskViWACZoYvxp4twS",
  "4budycTjhs9fD6xw62VBducVTNgMgJJ5BgtKq7mAZwn6",
  "8SBKzEQU4nLSzcwF4a74F2iaUDQyTfjGndn6qUWBnrpR",
  "4UQeTP1T39KZ9Sfxzo3WR5skgsaP6NZa87BAkuazLEKH",
  "8sNeir4QsLsJdYpc9RZacohhK1Y5FLU3nC5LXgYB4aa6",
  "Fh9HmeLNUMVCvejxCtCL2DbYaRyBFVJ5xrWkLnMH6fdk",
  "463MEnMeGyJekNZFQSTUABBEbLnvMTALbT6ZmsxAbAdq",
  "6AUH3WEHucYZyC61hqpqYUWVto5qA5hjHuNQ32GNnNxA",
].map((k) => new PublicKey(k));

/** Global.buyback_fee_recipients (same 8 keys as the SDK's CURRENT_FEE_RECIPIENTS_FOR_BUYBACK). */
export const BUYBACK_FEE_RECIPIENTS: readonly PublicKey[] = [
  "5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD",
  "9M4giFFMxmFGXtc3feFzRai56WbBqehoSeRE5GK7gf7",
  "GXPFM2caqTtQYC2cJ5yJRi9VDkpsYZXzYdwYpGnLmtDL",
  "3BpXnfJaUTiwXnJNe7Ej1rcbzqTTQUvLShZaWazebsVR",
  "5cjcW9wExnJJiqgLjq7DEG75Pm6JBgE1hNv4B2vHXUW6",
  "EHAAiTxcdDwQ3U4bU6YcMsQGaekdzLS3B5SmYo46kJtL",
  "5eHhjP8JaYkz83CWwvGU2uMUXefd3AazWGx4gpcuEEYD",
  "A7hAgCzFw14fejgCp387JUJRMNyz4j89JKnhtKU8piqW",
].map((k) => new PublicKey(k));

/** Mainnet withdraw authority (receives the pool migration fee). */
export const WITHDRAW_AUTHORITY = new PublicKey("39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg");

/** Documented mainnet Global curve parameters (pump-public-docs PUMP_PROGRAM_README.md). */
export const GENESIS_CURVE_PARAMS = {
  initialVirtualTokenReserves: 1_073_000_000_000_000n,
  initialVirtualSolReserves: 30_000_000_000n,
  initialRealTokenReserves: 793_100_000_000_000n,
  tokenTotalSupply: 1_000_000_000_000_000n,
  poolMigrationFee: 15_000_001n,
  /** Global fee bps (used by the SDK only without a FeeConfig; the program always uses FeeConfig). */
  feeBasisPoints: 95n,
  creatorFeeBasisPoints: 5n,
  /** Share of the protocol fee paid to the buyback recipient (third-party dump of live Global). */
  buybackBasisPoints: 5_000n,
  maxConfigurableCreatorFeeBps: 300n,
} as const;

/**
 * Bonding-curve FeeConfig tiers (no mainnet fixture exists): tier 0 protocol 95 / creator 30 bps as the
 * reference expects; higher market-cap tiers mirror the swap FeeConfig's thresholds. A curve completes
 * near 410 SOL market cap, so live curves trade in tier 0.
 */
export const GENESIS_FEE_TIERS: readonly {
  threshold: bigint;
  lpFeeBps: bigint;
  protocolFeeBps: bigint;
  creatorFeeBps: bigint;
}[] = [
  { threshold: 0n, lpFeeBps: 0n, protocolFeeBps: 95n, creatorFeeBps: 30n },
  { threshold: 420_000_000_000n, lpFeeBps: 0n, protocolFeeBps: 5n, creatorFeeBps: 95n },
  { threshold: 1_470_000_000_000n, lpFeeBps: 0n, protocolFeeBps: 5n, creatorFeeBps: 90n },
  { threshold: 2_460_000_000_000n, lpFeeBps: 0n, protocolFeeBps: 5n, creatorFeeBps: 85n },
];

/** Token decimals of every launch coin. */
export const LAUNCH_DECIMALS = 6;

/** Size the emulator allocates for new bonding curves (BONDING_CURVE_NEW_SIZE; decodes everywhere). */
export const CURVE_ACCOUNT_SIZE = 151;
/** Size the program allocates for a pump user volume accumulator (reference C.2). */
export const UVA_ACCOUNT_SIZE = 137;
/** GlobalVolumeAccumulator size. */
export const GVA_ACCOUNT_SIZE = 544;
/** FeeConfig size (FEE_CONFIG_CURRENT_SIZE). */
export const FEE_CONFIG_SIZE = 4097;
