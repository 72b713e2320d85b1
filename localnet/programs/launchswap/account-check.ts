/**
 * Generic account-list check against the IDL: count, order, signer and writable flags, fixed
 * addresses, PDA seeds (re-derived) and `relations` (has_one on the pool). Failures carry the Anchor
 * framework error codes a real Anchor program returns, so an IDL change surfaces as a failed check.
 */
import { PublicKey } from "@solana/web3.js";
import type { InstructionAccount } from "../types.js";
import { ProgramFailure } from "../types.js";
import { SWAP_IDL } from "./codec.js";

/** Anchor framework error codes used by the checks. */
export const ANCHOR = {
  InstructionFallbackNotFound: 101,
  InstructionDidNotDeserialize: 102,
  ConstraintMut: 2000,
  ConstraintHasOne: 2001,
  ConstraintSeeds: 2006,
  ConstraintAddress: 2012,
  ConstraintTokenMint: 2014,
  ConstraintTokenOwner: 2015,
  ConstraintMintTokenProgram: 2022,
  AccountDiscriminatorMismatch: 3002,
  AccountNotEnoughKeys: 3005,
  AccountOwnedByWrongProgram: 3007,
  InvalidProgramId: 3008,
  AccountNotSigner: 3010,
  AccountNotInitialized: 3012,
} as const;

interface IdlSeed {
  kind: "const" | "account" | "arg";
  value?: number[];
  path?: string;
  account?: string;
}

interface IdlAccountSpec {
  name: string;
  writable?: boolean;
  signer?: boolean;
  address?: string;
  relations?: string[];
  pda?: { seeds: IdlSeed[]; program?: IdlSeed };
}

/** Fails with an Anchor error code and a log-style message. */
export function fail(code: number, name: string, account?: string): never {
  throw new ProgramFailure(
    code,
    account ? `AnchorError caused by account: ${account}. Error: ${name}.` : name,
  );
}

/** The IDL account list of an instruction. */
function idlAccounts(ixName: string): IdlAccountSpec[] {
  const ix = SWAP_IDL.instructions.find((i) => i.name === ixName);
  if (!ix) throw new Error(`swap IDL has no instruction ${ixName}`);
  return ix.accounts as unknown as IdlAccountSpec[];
}

/** Named accounts of one instruction plus its remaining accounts. */
export interface CheckedAccounts {
  byName: Map<string, InstructionAccount>;
  remaining: InstructionAccount[];
  /** The key of a named account (throws when the IDL has no such name: a programming error). */
  key(name: string): PublicKey;
}

/** Reads a field of an already-decoded account referenced by a seed path like "pool.coin_creator". */
export type FieldResolver = (account: string, field: string) => PublicKey;

/**
 * Checks `accounts` against the IDL list of `ixName`. `fieldOf` resolves seeds that read a field
 * of another account (e.g. the coin creator stored in the pool).
 */
export function checkAccounts(
  ixName: string,
  accounts: InstructionAccount[],
  programId: PublicKey,
  fieldOf: FieldResolver,
): CheckedAccounts {
  const specs = idlAccounts(ixName);
  if (accounts.length < specs.length) fail(ANCHOR.AccountNotEnoughKeys, "AccountNotEnoughKeys");
  const byName = new Map<string, InstructionAccount>();
  specs.forEach((s, i) => byName.set(s.name, accounts[i]!));
  const key = (name: string): PublicKey => {
    const a = byName.get(name);
    if (!a) throw new Error(`no account ${name} in ${ixName}`);
    return a.pubkey;
  };
  const seedBytes = (seed: IdlSeed): Buffer => {
    if (seed.kind === "const") return Buffer.from(seed.value ?? []);
    const path = seed.path ?? "";
    const dot = path.indexOf(".");
    if (dot >= 0) return fieldOf(path.slice(0, dot), path.slice(dot + 1)).toBuffer();
    if (seed.kind === "account") return key(path).toBuffer();
    throw new Error(`unsupported seed kind ${seed.kind} in ${ixName}`);
  };
  for (const spec of specs) {
    const acc = byName.get(spec.name)!;
    if (spec.signer && !acc.isSigner) fail(ANCHOR.AccountNotSigner, "AccountNotSigner", spec.name);
    if (spec.writable && !acc.isWritable) fail(ANCHOR.ConstraintMut, "ConstraintMut", spec.name);
    if (spec.address) {
      const expected = spec.address === programId.toBase58() || spec.name === "program" ? programId : null;
      const want = expected ?? new PublicKey(spec.address);
      if (!acc.pubkey.equals(want)) fail(ANCHOR.ConstraintAddress, "ConstraintAddress", spec.name);
    }
    if (spec.pda) {
      const seeds = spec.pda.seeds.map(seedBytes);
      const program = spec.pda.program
        ? spec.pda.program.kind === "const"
          ? new PublicKey(Buffer.from(spec.pda.program.value ?? []))
          : key(spec.pda.program.path ?? "")
        : programId;
      const [expected] = PublicKey.findProgramAddressSync(seeds, program);
      if (!acc.pubkey.equals(expected)) fail(ANCHOR.ConstraintSeeds, "ConstraintSeeds", spec.name);
    }
  }
  // `relations: ["pool"]` on account X means pool.X must equal X (Anchor has_one).
  for (const spec of specs) {
    for (const rel of spec.relations ?? []) {
      if (!fieldOf(rel, spec.name).equals(key(spec.name)))
        fail(ANCHOR.ConstraintHasOne, "ConstraintHasOne", rel);
    }
  }
  return { byName, remaining: accounts.slice(specs.length), key };
}
