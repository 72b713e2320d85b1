/**
 * Addresses that are never a wallet: the runtime's reserved account keys (builtin programs, precompiles,
 * sysvars), which a transaction can never credit (it fails on chain with ReadonlyLamportChange after the
 * fee and tip are paid), and the programs and mint the service itself uses, which would take the lamports
 * for good. A SOL or token transfer to one of them is refused before anything is signed.
 */
import {
  ATA_PROGRAM_ID,
  LAUNCH_FEE_PROGRAM_ID,
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  MAYHEM_PROGRAM_ID,
  SPL_TOKEN_PROGRAM_ID,
  TOKEN_2022_ID,
  WSOL_MINT,
} from "../../launch/programs.js";
import { badRequest } from "../../core/errors.js";

/** The runtime's reserved account keys (agave's ReservedAccountKeys, all features active). */
export const RUNTIME_RESERVED_ADDRESSES: readonly string[] = [
  "11111111111111111111111111111111",
  "Config1111111111111111111111111111111111111",
  "Feature111111111111111111111111111111111111",
  "NativeLoader1111111111111111111111111111111",
  "Stake11111111111111111111111111111111111111",
  "StakeConfig11111111111111111111111111111111",
  "Vote111111111111111111111111111111111111111",
  "BPFLoader1111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  "LoaderV411111111111111111111111111111111111",
  "ComputeBudget111111111111111111111111111111",
  "AddressLookupTab1e1111111111111111111111111",
  "Ed25519SigVerify111111111111111111111111111",
  "KeccakSecp256k11111111111111111111111111111",
  "Secp256r1SigVerify1111111111111111111111111",
  "ZkTokenProof1111111111111111111111111111111",
  "ZkE1Gama1Proof11111111111111111111111111111",
  "Sysvar1111111111111111111111111111111111111",
  "SysvarC1ock11111111111111111111111111111111",
  "SysvarEpochSchedu1e111111111111111111111111",
  "SysvarFees111111111111111111111111111111111",
  "Sysvar1nstructions1111111111111111111111111",
  "SysvarRecentB1ockHashes11111111111111111111",
  "SysvarRent111111111111111111111111111111111",
  "SysvarRewards111111111111111111111111111111",
  "SysvarS1otHashes111111111111111111111111111",
  "SysvarS1otHistory11111111111111111111111111",
  "SysvarStakeHistory1111111111111111111111111",
  "SysvarEpochRewards1111111111111111111111111",
  "SysvarLastRestartS1ot1111111111111111111111",
];

/** Programs and the mint the service itself uses (the chain accepts lamports sent to them; they are lost). */
const SERVICE_PROGRAM_ADDRESSES: readonly string[] = [
  SPL_TOKEN_PROGRAM_ID,
  TOKEN_2022_ID,
  ATA_PROGRAM_ID,
  WSOL_MINT,
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  LAUNCH_FEE_PROGRAM_ID,
  MAYHEM_PROGRAM_ID,
].map((k) => k.toBase58());

const NOT_A_WALLET: ReadonlySet<string> = new Set([
  ...RUNTIME_RESERVED_ADDRESSES,
  ...SERVICE_PROGRAM_ADDRESSES,
]);

/** Whether `address` is a program, sysvar or mint address that can never be a transfer's recipient wallet. */
export function isReservedAddress(address: string): boolean {
  return NOT_A_WALLET.has(address);
}

/** Throws a 400 with `detail` when `destination` is a reserved address. */
export function checkNotReserved(destination: string, detail: string): void {
  if (isReservedAddress(destination)) throw badRequest(detail);
}
