export { createVault, verifyVault, type Vault, type SealedWallet } from "./vault.js";
export {
  loadMasterKey,
  parseMasterKey,
  parsePreviousMasterKeys,
  MasterKeyError,
  SANDBOX_KEY_FILE,
  type MasterKey,
  type MasterKeySettings,
} from "./master-key.js";
export { rotateWalletKeys, type RotationReport, type RotationFailure, type RotationStore } from "./rotate.js";
