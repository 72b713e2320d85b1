/**
 * Generic account-list validation driven by the IDL the SDK ships: count, signer and writable flags,
 * fixed addresses and every PDA re-derived from its seeds (const, account, account-field and arg
 * seeds). A changed IDL therefore shows up as a failed check rather than as silently wrong state.
 */
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../../src/launch/sdk.js";
import type { InstructionAccount, LedgerAccess } from "../types.js";
import { anchorFail, type LogSink } from "./failures.js";
import { pumpCoder } from "./idl-coder.js";
import { derivePda } from "./pda-memo.js";

/** One account entry of an IDL instruction (Anchor 0.30+ IDL format). */
export interface IdlAccountSpec {
  name: string;
  writable?: boolean;
  signer?: boolean;
  optional?: boolean;
  address?: string;
  pda?: { seeds: IdlSeed[]; program?: IdlSeed };
}

type IdlSeed =
  | { kind: "const"; value: number[] }
  | { kind: "account"; path: string; account?: string }
  | { kind: "arg"; path: string };

/** An IDL instruction: its name, discriminator and accounts. */
export interface IdlInstructionSpec {
  name: string;
  discriminator: number[];
  accounts: IdlAccountSpec[];
}

/** The IDL's instructions by snake_case name. */
export function idlInstruction(name: string): IdlInstructionSpec {
  const ix = (launchSdk.pumpIdl.instructions as unknown as IdlInstructionSpec[]).find((i) => i.name === name);
  if (!ix) throw new Error(`pump IDL has no instruction ${name}`);
  return ix;
}

const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Named accounts of a validated instruction, plus what followed the IDL list. */
export interface CheckedAccounts {
  byName: Map<string, InstructionAccount>;
  remaining: InstructionAccount[];
}

/** Looks up a named account that the check guaranteed is present. */
export function acct(checked: CheckedAccounts, name: string): InstructionAccount {
  const a = checked.byName.get(name);
  if (!a) throw new Error(`account ${name} not in instruction`);
  return a;
}

/**
 * Validates `accounts` against the IDL instruction `spec`. `args` are the decoded instruction
 * arguments (for `arg` seeds). Fails with Anchor's error numbers (documented in docs/localnet.md).
 */
export function checkAccounts(
  spec: IdlInstructionSpec,
  accounts: InstructionAccount[],
  programId: PublicKey,
  ledger: LedgerAccess,
  log: LogSink,
  args: Record<string, unknown> = {},
): CheckedAccounts {
  if (accounts.length < spec.accounts.length) anchorFail(log, "AccountNotEnoughKeys");
  const byName = new Map<string, InstructionAccount>();
  spec.accounts.forEach((a, i) => byName.set(a.name, accounts[i]!));

  const seedBytes = (seed: IdlSeed, owner: string): Uint8Array => {
    if (seed.kind === "const") return Uint8Array.from(seed.value);
    if (seed.kind === "arg") {
      const v = args[camel(seed.path)];
      if (v instanceof PublicKey) return v.toBytes();
      if (typeof v === "string") return new TextEncoder().encode(v);
      throw new Error(`unsupported arg seed ${seed.path}`);
    }
    const [accountName, ...fieldPath] = seed.path.split(".");
    const target = byName.get(accountName!);
    if (!target) throw new Error(`seed refers to unknown account ${seed.path}`);
    if (fieldPath.length === 0) return target.pubkey.toBytes();
    // An account-field seed (e.g. bonding_curve.creator): the program reads the field from the account.
    const state = ledger.getAccount(target.pubkey);
    if (!state || !seed.account) anchorFail(log, "AccountNotInitialized", accountName);
    if (!state.owner.equals(programId)) anchorFail(log, "AccountOwnedByWrongProgram", accountName);
    const coder = pumpCoder;
    const typeName = seed.account.charAt(0).toLowerCase() + seed.account.slice(1);
    const size = coder.accounts.size(typeName);
    const data = Buffer.alloc(Math.max(size, state.data.length));
    data.set(state.data);
    let decoded: unknown;
    try {
      decoded = coder.accounts.decode(typeName, data);
    } catch {
      anchorFail(log, "AccountDiscriminatorMismatch", accountName);
    }
    let value: unknown = decoded;
    for (const f of fieldPath) value = (value as Record<string, unknown>)[camel(f)];
    if (!(value instanceof PublicKey)) throw new Error(`seed field ${seed.path} (${owner}) is not a pubkey`);
    return value.toBytes();
  };

  for (const [i, spec_] of spec.accounts.entries()) {
    const given = accounts[i]!;
    if (spec_.signer && !given.isSigner) anchorFail(log, "AccountNotSigner", spec_.name);
    if (spec_.writable && !given.isWritable) anchorFail(log, "ConstraintMut", spec_.name);
    if (spec_.address && !given.pubkey.equals(new PublicKey(spec_.address))) {
      anchorFail(log, spec_.name.endsWith("program") ? "InvalidProgramId" : "ConstraintAddress", spec_.name);
    }
    if (spec_.pda) {
      const seeds = spec_.pda.seeds.map((s) => seedBytes(s, spec_.name));
      const pdaProgram = spec_.pda.program
        ? new PublicKey(seedBytes(spec_.pda.program, spec_.name))
        : programId;
      const expected = derivePda(seeds, pdaProgram);
      if (!expected.equals(given.pubkey)) anchorFail(log, "ConstraintSeeds", spec_.name);
    }
  }
  return { byName, remaining: accounts.slice(spec.accounts.length) };
}
