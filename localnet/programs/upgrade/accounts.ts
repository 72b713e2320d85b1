/** Account-list checks shared by the upgrade instructions of both programs: count, signer and writable flags. */
import type { PublicKey } from "@solana/web3.js";
import type { InstructionAccount } from "../types.js";
import type { UpgradeInstructionSpec } from "./instructions.js";

/** The Anchor errors a flag check raises. */
export type FlagFailure = "AccountNotEnoughKeys" | "AccountNotSigner" | "ConstraintMut";

/** The instruction's accounts by IDL name. */
export interface NamedAccounts {
  /** The key of account `name` (throws for a name the spec lacks: a programming error). */
  key(name: string): PublicKey;
  /** Accounts after the spec's list. */
  remaining: InstructionAccount[];
}

/** Checks count and flags against `spec`, failing through `fail` like Anchor would. */
export function namedAccounts(
  spec: UpgradeInstructionSpec,
  accounts: InstructionAccount[],
  fail: (error: FlagFailure, account?: string) => never,
): NamedAccounts {
  if (accounts.length < spec.accounts.length) fail("AccountNotEnoughKeys");
  const byName = new Map<string, InstructionAccount>();
  spec.accounts.forEach((s, i) => {
    const given = accounts[i]!;
    if (s.signer && !given.isSigner) fail("AccountNotSigner", s.name);
    if (s.writable && !given.isWritable) fail("ConstraintMut", s.name);
    byName.set(s.name, given);
  });
  return {
    key(name) {
      const a = byName.get(name);
      if (!a) throw new Error(`${spec.name} has no account ${name}`);
      return a.pubkey;
    },
    remaining: accounts.slice(spec.accounts.length),
  };
}
