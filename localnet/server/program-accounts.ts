/**
 * The accounts of the emulated launch programs as an RPC reports a deployed program: executable, owned by the
 * upgradeable BPF loader, data = the loader's `Program` state pointing at its program-data account. The
 * emulated programs have no ELF in LiteSVM, so these are answered by the RPC layer only (never written to the
 * ledger, which would try to load them).
 */
import { PublicKey } from "@solana/web3.js";
import type { AccountState } from "../programs/types.js";

const UPGRADEABLE_LOADER = new PublicKey("BPFLoaderUpgradeab1e11111111111111111111111");
// UpgradeableLoaderState::Program: u32 LE variant 2, then the program-data address.
const PROGRAM_STATE_TAG = 2;
// Rent-exempt minimum of a 36-byte account, as on mainnet.
const PROGRAM_ACCOUNT_LAMPORTS = 1_141_440n;

/** A lookup of synthetic program accounts for `programIds`. */
export function programAccounts(programIds: readonly PublicKey[]): (key: PublicKey) => AccountState | null {
  const byKey = new Map<string, AccountState>();
  for (const id of programIds) {
    const [programData] = PublicKey.findProgramAddressSync([id.toBuffer()], UPGRADEABLE_LOADER);
    const data = new Uint8Array(36);
    new DataView(data.buffer).setUint32(0, PROGRAM_STATE_TAG, true);
    data.set(programData.toBytes(), 4);
    byKey.set(id.toBase58(), {
      lamports: PROGRAM_ACCOUNT_LAMPORTS,
      data,
      owner: UPGRADEABLE_LOADER,
      executable: true,
    });
  }
  return (key) => byKey.get(key.toBase58()) ?? null;
}
