/**
 * The instructions and events of the October 2026 program upgrade (v3 curve trades, launchswap v2
 * trades, fee sweeps, the synthetic migration's PostCompleteBuyEvent), built from the IDL parts recorded
 * in idl/upgrade-2026-10.json with Anchor's own coder. The SDKs this project can install (pump-sdk 2.0.0,
 * pump-swap-sdk 1.20.0) predate the upgrade; when newer ones reach the registry, their builders replace
 * this file's callers (docs/decisions.md, 2026-11-28).
 */
import BN from "bn.js";
import { BorshCoder, type Idl } from "@coral-xyz/anchor";
import { PublicKey, TransactionInstruction, type AccountMeta } from "@solana/web3.js";
import recorded from "./idl/upgrade-2026-10.json" with { type: "json" };

/** One account of a recorded instruction. */
export interface RecordedAccount {
  readonly name: string;
  readonly writable?: boolean;
  readonly signer?: boolean;
  readonly address?: string;
}

/** One recorded instruction: discriminator, accounts in order, args. */
export interface RecordedInstruction {
  readonly name: string;
  readonly discriminator: readonly number[];
  readonly accounts: readonly RecordedAccount[];
  readonly args: readonly { name: string; type: unknown }[];
}

/** The two programs the upgrade touches. */
export type UpgradeProgram = "launch" | "launchswap";

/** The names of the recorded instructions, by program. */
export type LaunchUpgradeInstruction =
  "buy_v3" | "buy_exact_quote_in_v3" | "sell_v3" | "sweep_protocol_fee" | "sweep_creator_fee";
/** The names of the recorded swap instructions. */
export type SwapUpgradeInstruction =
  "buy_v2" | "buy_exact_quote_in_v2" | "sell_v2" | "sweep_protocol_fee" | "sweep_creator_fee";

interface RecordedProgram {
  address: string;
  metadata: { name: string; version: string; spec: string };
  instructions: RecordedInstruction[];
  events?: { name: string; discriminator: number[] }[];
  types: unknown[];
}

const programs = recorded as unknown as Record<UpgradeProgram, RecordedProgram>;

// Anchor's coder over the recorded parts (the IDL format Anchor 0.30+ reads; accounts need no layout).
function coderOf(p: RecordedProgram): BorshCoder {
  return new BorshCoder({ ...p, accounts: [], events: p.events ?? [] } as unknown as Idl);
}
const coders: Record<UpgradeProgram, BorshCoder> = {
  launch: coderOf(programs.launch),
  launchswap: coderOf(programs.launchswap),
};
const programIds: Record<UpgradeProgram, PublicKey> = {
  launch: new PublicKey(programs.launch.address),
  launchswap: new PublicKey(programs.launchswap.address),
};

/** The recorded instruction `name` of `program` (throws for a name not recorded: a bug). */
export function recordedInstruction(program: UpgradeProgram, name: string): RecordedInstruction {
  const ix = programs[program].instructions.find((i) => i.name === name);
  if (ix === undefined) throw new Error(`${program} ${name} is not in the recorded IDL`);
  return ix;
}

/** Every recorded instruction of `program` (tests, the doctor's report). */
export function recordedInstructions(program: UpgradeProgram): readonly RecordedInstruction[] {
  return programs[program].instructions;
}

/** Instruction arguments by recorded name: u64 amounts as bigint, OptionBool as boolean; all of them. */
export type UpgradeArgs = Readonly<Record<string, bigint | boolean>>;

function coderArgs(args: UpgradeArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = typeof v === "bigint" ? new BN(v.toString()) : { 0: v };
  return out;
}

/**
 * Builds `name` of `program`: data by Anchor's coder, accounts in the recorded order from `accounts`
 * (by recorded name; fixed addresses such as the system program may be left out).
 */
export function buildUpgradeInstruction(
  program: UpgradeProgram,
  name: string,
  accounts: Readonly<Record<string, PublicKey>>,
  args: UpgradeArgs = {},
): TransactionInstruction {
  return upgradeInstructionOf(program, name, upgradeAccountMetas(program, name, accounts), args);
}

/** The account metas `buildUpgradeInstruction` gives `name` of `program` for `accounts` (in recorded order). */
export function upgradeAccountMetas(
  program: UpgradeProgram,
  name: string,
  accounts: Readonly<Record<string, PublicKey>>,
): AccountMeta[] {
  const { ix, fixed } = compiledInstruction(program, name);
  return ix.accounts.map((a, i) => {
    const pubkey = accounts[a.name] ?? fixed[i] ?? null;
    if (pubkey === null) throw new Error(`${program} ${name}: account ${a.name} is missing`);
    return { pubkey, isWritable: a.writable === true, isSigner: a.signer === true };
  });
}

/**
 * `name` of `program` with account metas already made (by `upgradeAccountMetas`, possibly kept from an earlier
 * trade: trade-keys-memo.ts) and `args` encoded now.
 */
export function upgradeInstructionOf(
  program: UpgradeProgram,
  name: string,
  keys: AccountMeta[],
  args: UpgradeArgs = {},
): TransactionInstruction {
  const { ix, encode } = compiledInstruction(program, name);
  const missing = ix.args.find((a) => args[a.name] === undefined);
  if (missing !== undefined) throw new Error(`${program} ${name}: argument ${missing.name} is missing`);
  const data = encode?.(args) ?? Buffer.from(coders[program].instruction.encode(name, coderArgs(args)));
  return new TransactionInstruction({ programId: programIds[program], keys, data });
}

/** A recorded instruction made ready once: its fixed accounts' keys and, when its args allow, a direct encoder. */
interface CompiledInstruction {
  ix: RecordedInstruction;
  /** Per recorded account: its fixed key (the program itself, a recorded address), else undefined. */
  fixed: (PublicKey | undefined)[];
  /** The data bytes without Anchor's coder: set when every arg is a u64 or an OptionBool. */
  encode: ((args: UpgradeArgs) => Buffer) | undefined;
  /** Its account layout's id (`upgradeAccountLayout`). */
  layout: string;
}

// Account layouts seen so far (program, and per recorded account its name, flags and fixed address) → their ids.
const layouts = new Map<string, string>();
function layoutOf(program: UpgradeProgram, ix: RecordedInstruction): string {
  const signature = JSON.stringify([
    program,
    ix.accounts.map((a) => [a.name, a.writable === true, a.signer === true, a.address ?? null]),
  ]);
  let id = layouts.get(signature);
  if (id === undefined) {
    // One character: a memo key's prefix of fixed length, so two ids never run into the parts after them.
    id = String.fromCharCode(0x41 + layouts.size);
    layouts.set(signature, id);
  }
  return id;
}

/**
 * A one-character id of the account layout of `name` of `program` (the program and, in order, each recorded
 * account's name, flags and fixed address): `upgradeAccountMetas` gives equal metas for equal accounts to two
 * instructions of one id (buy_v3, sell_v3 and buy_exact_quote_in_v3 share one). The head of a memo key.
 */
export function upgradeAccountLayout(program: UpgradeProgram, name: string): string {
  return compiledInstruction(program, name).layout;
}

/** The position of the recorded account `account` among the accounts of `name` (throws when not recorded). */
export function upgradeAccountIndex(program: UpgradeProgram, name: string, account: string): number {
  const at = compiledInstruction(program, name).ix.accounts.findIndex((a) => a.name === account);
  if (at < 0) throw new Error(`${program} ${name} has no account ${account}`);
  return at;
}

/** What a memoized trade builder needs of each of its instructions: the layout id and the buyback slot. */
export interface TradeShape {
  layout: string;
  buybackAt: number;
}

/** Per trade instruction of `program`, once: its layout id (a memo key's head) and its buyback account's slot. */
export function tradeShapes<N extends string>(
  program: UpgradeProgram,
  names: readonly N[],
): Record<N, TradeShape> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        layout: upgradeAccountLayout(program, name),
        buybackAt: upgradeAccountIndex(program, name, "buyback_fee_recipient"),
      },
    ]),
  ) as Record<N, TradeShape>;
}

const compiledInstructions = new Map<string, CompiledInstruction>();

// An instruction is built on every trade: its fixed keys were parsed from base 58, and its data went through
// Anchor's coder (BN conversions, a 1,000-byte scratch buffer) on each call. Both are done once here; the
// bytes are the coder's (test/unit/launch/upgrade-encode.test.ts holds them equal for every instruction).
function compiledInstruction(program: UpgradeProgram, name: string): CompiledInstruction {
  const id = `${program}:${name}`;
  let c = compiledInstructions.get(id);
  if (c === undefined) {
    const ix = recordedInstruction(program, name);
    const fixed = ix.accounts.map((a) =>
      a.name === "program"
        ? programIds[program]
        : a.address !== undefined
          ? new PublicKey(a.address)
          : undefined,
    );
    c = { ix, fixed, encode: directEncoder(ix), layout: layoutOf(program, ix) };
    compiledInstructions.set(id, c);
  }
  return c;
}

const U64_MAX = (1n << 64n) - 1n;

/** The data encoder of `ix` when its args are all u64 (8 bytes, little end first) or OptionBool (1 byte). */
function directEncoder(ix: RecordedInstruction): ((args: UpgradeArgs) => Buffer) | undefined {
  const kinds = ix.args.map((a) => (a.type === "u64" ? "u64" : isOptionBool(a.type) ? "bool" : undefined));
  if (kinds.includes(undefined)) return undefined;
  const size = ix.discriminator.length + kinds.reduce((n, k) => n + (k === "u64" ? 8 : 1), 0);
  const discriminator = Buffer.from(ix.discriminator);
  return (args) => {
    const out = Buffer.alloc(size);
    discriminator.copy(out, 0);
    let at = discriminator.length;
    ix.args.forEach((a, i) => {
      const v = args[a.name];
      if (kinds[i] === "u64") {
        if (typeof v !== "bigint" || v < 0n || v > U64_MAX)
          throw new Error(`${ix.name}: argument ${a.name} is not a u64`);
        out.writeBigUInt64LE(v, at);
        at += 8;
      } else {
        if (typeof v !== "boolean") throw new Error(`${ix.name}: argument ${a.name} is not a bool`);
        out[at] = v ? 1 : 0;
        at += 1;
      }
    });
    return out;
  };
}

function isOptionBool(t: unknown): boolean {
  const defined = (t as { defined?: { name?: string } } | null)?.defined;
  return typeof t === "object" && defined?.name === "OptionBool";
}

/** Decodes a recorded launch event body (after its 8-byte discriminator); null when the name is not recorded. */
export function decodeUpgradeEvent(name: string, body: Buffer): Record<string, unknown> | null {
  if (!(programs.launch.events ?? []).some((e) => e.name === name)) return null;
  return coders.launch.types.decode(name, body) as Record<string, unknown>;
}

/** Discriminators (hex) of the recorded launch events, by name. */
export function upgradeEventDiscriminators(): ReadonlyMap<string, string> {
  return new Map(
    (programs.launch.events ?? []).map((e) => [Buffer.from(e.discriminator).toString("hex"), e.name]),
  );
}

/** Byte offsets of the curve fields appended after the 125-byte layout (zero when the account is shorter). */
export const CURVE_TAIL_FIELDS = (
  recorded as unknown as {
    launch: { bonding_curve_fields_after_125_bytes: { name: string; type: "u64" | "u8"; offset: number }[] };
  }
).launch.bonding_curve_fields_after_125_bytes;
