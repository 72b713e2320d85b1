/**
 * Genesis of the swap program: GlobalConfig, the mainnet FeeConfig, the global volume accumulator,
 * the event authority, and funded fee / buyback recipients with WSOL accounts, so transactions built
 * by the official swap SDK run unmodified.
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import { MINT_SIZE, createAssociatedTokenAccountIdempotentInstruction } from "@solana/spl-token";
import type { AdminLedger } from "../types.js";
import { BUYBACK_FEE_RECIPIENTS, FEE_RECIPIENTS, RESERVED_FEE_RECIPIENTS } from "../launch/constants.js";
import {
  FEE_PROGRAM_ID,
  GLOBAL_CONFIG,
  NATIVE_MINT,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_VOLUME_ACCUMULATOR,
  SWAP_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
} from "./addresses.js";
import { bn, encodeAccount, type GlobalConfigData } from "./codec.js";
import { MAINNET_SWAP_FEE_CONFIG_BASE64 } from "./fee-config-mainnet.js";

/** GlobalConfig size (GLOBAL_CONFIG_SIZE in the swap SDK). */
const GLOBAL_CONFIG_SIZE = 949;
const GVA_SIZE = 544;

/** Admin of the emulated swap program: the admin recorded in the mainnet FeeConfig (nothing signs with it). */
const SWAP_ADMIN = new PublicKey(Buffer.from(MAINNET_SWAP_FEE_CONFIG_BASE64, "base64").subarray(9, 41));

/** Genesis GlobalConfig values (mainnet-like; the FeeConfig decides the rates actually charged). */
export function genesisGlobalConfig(): GlobalConfigData {
  return {
    admin: SWAP_ADMIN,
    lp_fee_basis_points: bn(25n),
    protocol_fee_basis_points: bn(5n),
    disable_flags: 0,
    protocol_fee_recipients: [...FEE_RECIPIENTS],
    coin_creator_fee_basis_points: bn(5n),
    admin_set_coin_creator_authority: SWAP_ADMIN,
    whitelist_pda: PublicKey.default,
    reserved_fee_recipient: RESERVED_FEE_RECIPIENTS[0]!,
    mayhem_mode_enabled: true,
    reserved_fee_recipients: RESERVED_FEE_RECIPIENTS.slice(1),
    is_cashback_enabled: true,
    buyback_fee_recipients: [...BUYBACK_FEE_RECIPIENTS],
    // Same split as the bonding-curve genesis: half of the protocol fee goes to buyback.
    buyback_basis_points: bn(5_000n),
    boost_authority: PublicKey.default,
    boost_enabled: false,
    creator_fee_configurable: false,
    max_configurable_creator_fee_bps: bn(300n),
  };
}

function putAccount(ledger: AdminLedger, key: PublicKey, data: Uint8Array, owner: PublicKey): void {
  ledger.setAccount(key, { lamports: ledger.rentExemptMinimum(data.length), data, owner, executable: false });
}

/** Creates the native mint when the ledger's genesis did not (SPL layout: initialized, 9 decimals, no authority). */
function ensureNativeMint(ledger: AdminLedger): void {
  if (ledger.getAccount(NATIVE_MINT)) return;
  const data = new Uint8Array(MINT_SIZE);
  data[44] = 9;
  data[45] = 1;
  putAccount(ledger, NATIVE_MINT, data, TOKEN_PROGRAM_ID);
}

/** Installs the swap program's genesis accounts. Idempotent for the fixed accounts. */
export function installLaunchSwapGenesis(ledger: AdminLedger): void {
  ensureNativeMint(ledger);
  putAccount(
    ledger,
    GLOBAL_CONFIG,
    encodeAccount("GlobalConfig", genesisGlobalConfig(), GLOBAL_CONFIG_SIZE),
    SWAP_PROGRAM_ID,
  );
  putAccount(
    ledger,
    SWAP_FEE_CONFIG,
    new Uint8Array(Buffer.from(MAINNET_SWAP_FEE_CONFIG_BASE64, "base64")),
    FEE_PROGRAM_ID,
  );
  const gva = {
    start_time: bn(0n),
    end_time: bn(0n),
    seconds_in_a_day: bn(86_400n),
    mint: PublicKey.default,
    total_token_supply: Array.from({ length: 30 }, () => bn(0n)),
    sol_volumes: Array.from({ length: 30 }, () => bn(0n)),
  };
  putAccount(
    ledger,
    SWAP_GLOBAL_VOLUME_ACCUMULATOR,
    encodeAccount("GlobalVolumeAccumulator", gva, GVA_SIZE),
    SWAP_PROGRAM_ID,
  );
  const rent0 = ledger.rentExemptMinimum(0);
  if (!ledger.getAccount(SWAP_EVENT_AUTHORITY)) ledger.fund(SWAP_EVENT_AUTHORITY, rent0);
  const op = ledger.operator.publicKey;
  const recipients = [...FEE_RECIPIENTS, ...RESERVED_FEE_RECIPIENTS, ...BUYBACK_FEE_RECIPIENTS];
  const ixs = [];
  for (const r of recipients) {
    if (!ledger.getAccount(r))
      ixs.push(SystemProgram.transfer({ fromPubkey: op, toPubkey: r, lamports: rent0 }));
    ixs.push(
      createAssociatedTokenAccountIdempotentInstruction(
        op,
        ata(r, NATIVE_MINT, TOKEN_PROGRAM_ID),
        r,
        NATIVE_MINT,
        TOKEN_PROGRAM_ID,
      ),
    );
  }
  ledger.execute(ixs);
}
