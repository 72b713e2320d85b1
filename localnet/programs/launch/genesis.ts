/**
 * Genesis: every account the SDK's bonding-curve builders and quotes read, with mainnet-like values, so
 * transactions built by the official SDK run unmodified (see docs/localnet.md, "Bonding-curve program").
 */
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../../src/launch/sdk.js";
import type { AdminLedger } from "../types.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_CONFIG_SIZE,
  FEE_PROGRAM_ID,
  FEE_RECIPIENTS,
  GENESIS_CURVE_PARAMS as P,
  GENESIS_FEE_TIERS,
  GVA_ACCOUNT_SIZE,
  LAUNCH_PROGRAM_ID,
  MAYHEM_PROGRAM_ID,
  RESERVED_FEE_RECIPIENTS,
  WITHDRAW_AUTHORITY,
} from "./constants.js";
import { encodeFeeConfig, encodeGlobal, type GlobalState } from "./layouts.js";
import {
  EVENT_AUTHORITY_ADDRESS,
  FEE_CONFIG_ADDRESS,
  GLOBAL_ADDRESS,
  GLOBAL_VOLUME_ACCUMULATOR_ADDRESS,
} from "./pda.js";

const GVA_DISC = Uint8Array.from([202, 42, 246, 43, 142, 190, 30, 255]);

/** Genesis switches of the bonding-curve program. */
export interface LaunchGenesisOptions {
  /** Emulate the earlier program in which create_v2 could create cashback coins. */
  cashbackCreation: boolean;
}

/** The Global account the localnet starts with. */
function genesisGlobal(authority: PublicKey): GlobalState {
  return {
    initialized: true,
    authority,
    feeRecipient: FEE_RECIPIENTS[0]!,
    initialVirtualTokenReserves: P.initialVirtualTokenReserves,
    initialVirtualSolReserves: P.initialVirtualSolReserves,
    initialRealTokenReserves: P.initialRealTokenReserves,
    tokenTotalSupply: P.tokenTotalSupply,
    feeBasisPoints: P.feeBasisPoints,
    withdrawAuthority: WITHDRAW_AUTHORITY,
    enableMigrate: true,
    poolMigrationFee: P.poolMigrationFee,
    creatorFeeBasisPoints: P.creatorFeeBasisPoints,
    feeRecipients: FEE_RECIPIENTS.slice(1),
    setCreatorAuthority: authority,
    adminSetCreatorAuthority: authority,
    createV2Enabled: true,
    whitelistPda: PublicKey.default,
    reservedFeeRecipient: RESERVED_FEE_RECIPIENTS[0]!,
    mayhemModeEnabled: true,
    reservedFeeRecipients: RESERVED_FEE_RECIPIENTS.slice(1),
    // Existing cashback coins keep working in both modes; only creation differs (create_v2 → 6082).
    isCashbackEnabled: true,
    buybackFeeRecipients: [...BUYBACK_FEE_RECIPIENTS],
    buybackBasisPoints: P.buybackBasisPoints,
    initialVirtualQuoteReserves: 0n,
    whitelistedQuoteMints: [PublicKey.default],
    creatorFeeConfigurable: false,
    maxConfigurableCreatorFeeBps: P.maxConfigurableCreatorFeeBps,
    holderRewardClaimAuthority: PublicKey.default,
    isHolderRewardEnabled: false,
  };
}

function fundIfMissing(ledger: AdminLedger, key: PublicKey): void {
  if (!ledger.getAccount(key)) ledger.fund(key, ledger.rentExemptMinimum(0));
}

function put(ledger: AdminLedger, key: PublicKey, owner: PublicKey, data: Uint8Array): void {
  ledger.setAccount(key, { lamports: ledger.rentExemptMinimum(data.length), data, owner, executable: false });
}

/** Writes Global, the pump FeeConfig, the global volume accumulator and the fixed accounts. */
export function installGenesis(ledger: AdminLedger, _opts: LaunchGenesisOptions): void {
  const authority = ledger.operator.publicKey;
  put(ledger, GLOBAL_ADDRESS, LAUNCH_PROGRAM_ID, encodeGlobal(genesisGlobal(authority)));

  const [, feeBump] = PublicKey.findProgramAddressSync(
    [Buffer.from("fee_config"), LAUNCH_PROGRAM_ID.toBuffer()],
    FEE_PROGRAM_ID,
  );
  const tiers = GENESIS_FEE_TIERS.map((t) => ({
    marketCapLamportsThreshold: t.threshold,
    fees: { lpFeeBps: t.lpFeeBps, protocolFeeBps: t.protocolFeeBps, creatorFeeBps: t.creatorFeeBps },
  }));
  const feeConfig = encodeFeeConfig(
    {
      bump: feeBump,
      admin: authority,
      flatFees: { lpFeeBps: 0n, protocolFeeBps: 95n, creatorFeeBps: 30n },
      feeTiers: tiers,
      stableFeeTiers: tiers,
      exoticFlatFees: { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n },
    },
    FEE_CONFIG_SIZE,
  );
  put(ledger, FEE_CONFIG_ADDRESS, FEE_PROGRAM_ID, feeConfig);

  // No token-incentive window is active (start = end = 0), so track_volume changes no counters.
  const gva = new Uint8Array(GVA_ACCOUNT_SIZE);
  gva.set(GVA_DISC, 0);
  new DataView(gva.buffer).setBigInt64(24, 86_400n, true);
  put(ledger, GLOBAL_VOLUME_ACCUMULATOR_ADDRESS, LAUNCH_PROGRAM_ID, gva);

  // Lamport-receiving fixed accounts must be rent-exempt system accounts before their first fee.
  for (const k of [
    ...FEE_RECIPIENTS,
    ...RESERVED_FEE_RECIPIENTS,
    ...BUYBACK_FEE_RECIPIENTS,
    WITHDRAW_AUTHORITY,
  ])
    fundIfMissing(ledger, k);
  fundIfMissing(ledger, EVENT_AUTHORITY_ADDRESS);
  // Mayhem program accounts create_v2 lists (no mayhem CPI is emulated; they only need to exist).
  fundIfMissing(ledger, launchSdk.getSolVaultPda());
  const globalParams = launchSdk.getGlobalParamsPda();
  if (!ledger.getAccount(globalParams)) put(ledger, globalParams, MAYHEM_PROGRAM_ID, new Uint8Array(8));
}
