/**
 * Master-key rotation: re-encrypts every wallet whose key id differs from the vault's current key, one
 * wallet per transaction, so an interrupted run can simply be started again.
 */
import type { Store, WalletRecord } from "../store/types.js";
import { MasterKeyError } from "./master-key.js";
import type { Vault } from "./vault.js";

/** The store methods a rotation uses. */
export type RotationStore = Pick<
  Store,
  "walletKeyIdCounts" | "listWalletsNotUnderKey" | "replaceWalletSecret"
>;

/** A wallet that could not be re-encrypted: its row id, its key id and why (never key or secret material). */
export interface RotationFailure {
  walletId: number;
  keyId: string;
  reason: string;
}

/** What a run did. `failed` non-empty means some wallets stay under an old key. */
export interface RotationReport {
  /** The key id every wallet should end under. */
  keyId: string;
  /** Wallets per key id before the run. */
  before: { keyId: string; count: number }[];
  /** Wallets re-encrypted under `keyId` by this run. */
  rotated: number;
  /** Wallets already under `keyId` when the run started. */
  alreadyCurrent: number;
  /** Wallets deleted or changed by someone else between reading and writing (left as they were). */
  skipped: number;
  failed: RotationFailure[];
}

const BATCH = 100;

/** Why a record did not decrypt, in words an operator can act on. */
function failureReason(e: unknown, record: WalletRecord): string {
  if (e instanceof MasterKeyError) {
    return `encrypted with key id ${record.keyId}, which neither MASTER_KEY nor PREVIOUS_MASTER_KEYS has`;
  }
  // AES-GCM refused the tag: a key with this id exists but the record does not authenticate under it.
  return `does not decrypt under the key with id ${record.keyId} (record corrupt or tampered)`;
}

/** Re-encrypts every wallet not under `vault.keyId`; decrypt failures are collected, the rest still rotate. */
export async function rotateWalletKeys(
  store: RotationStore,
  vault: Pick<Vault, "keyId" | "decryptSecret" | "encryptSecret">,
): Promise<RotationReport> {
  const before = await store.walletKeyIdCounts();
  const report: RotationReport = {
    keyId: vault.keyId,
    before,
    rotated: 0,
    alreadyCurrent: before.find((c) => c.keyId === vault.keyId)?.count ?? 0,
    skipped: 0,
    failed: [],
  };
  let afterId = 0;
  for (;;) {
    const batch = await store.listWalletsNotUnderKey(vault.keyId, afterId, BATCH);
    if (batch.length === 0) break;
    for (const record of batch) {
      afterId = record.id;
      let secret: Uint8Array;
      try {
        secret = vault.decryptSecret(record);
      } catch (e) {
        report.failed.push({ walletId: record.id, keyId: record.keyId, reason: failureReason(e, record) });
        continue;
      }
      try {
        const next = vault.encryptSecret(secret, record.publicKey);
        if (await store.replaceWalletSecret(record.id, record, next)) report.rotated += 1;
        else report.skipped += 1;
      } finally {
        secret.fill(0);
      }
    }
  }
  return report;
}
