/** The localnet ledger's public surface. */
export { createLedger, EMULATED_INSTRUCTION_UNITS } from "./ledger.js";
export type { BundleOutcome, Ledger, LedgerOptions, SimulateOptions, SimulationResult } from "./ledger.js";
export { TransactionRejected, transactionErrorMessage } from "./tx-errors.js";
export type { InstructionErrorJson, TransactionErrorJson } from "./tx-errors.js";
export type { SignatureStatus, TransactionRecord } from "./tx-store.js";
export { accountKeysOf, FINALIZED_AFTER_SLOTS } from "./tx-store.js";
export type { SignaturePage } from "./tx-store.js";
export type { TokenBalance } from "./token-balances.js";
export { BLOCKHASH_VALIDITY_SLOTS } from "./blockhash-queue.js";
