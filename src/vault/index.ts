export { createVault, verifyVault, type Vault, type SealedWallet } from "./vault.js";
export {
  loadMasterKey,
  parseMasterKey,
  masterKeyId,
  MasterKeyError,
  SANDBOX_KEY_FILE,
  type MasterKey,
  type MasterKeySettings,
} from "./master-key.js";
