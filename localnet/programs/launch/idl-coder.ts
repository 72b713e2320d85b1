/** The bonding-curve IDL's Anchor coder, built once (parsing the IDL costs milliseconds per call). */
import { BorshInstructionCoder, type BorshCoder } from "@coral-xyz/anchor";
import { launchSdk } from "../../../src/launch/sdk.js";

// An offline Program over the SDK's IDL (null connection, as the SDK's own offline program): only its
// coders are used. Immutable after construction, so sharing it is safe.
const offlineProgram = launchSdk.getPumpProgram(null as never);

/** Accounts, types and events coder of the program's (camelCased) IDL. */
export const pumpCoder = offlineProgram.coder as unknown as BorshCoder;

/** Instruction coder with `decode` (the typed Program coder hides it). */
export const pumpInstructionCoder = new BorshInstructionCoder(offlineProgram.idl);
