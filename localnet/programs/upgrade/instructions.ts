/**
 * The instructions the October 2026 upgrade added, as the localnet recognises them: name, program,
 * Anchor discriminator, account list (order, writable and signer flags) and argument layout, carried
 * over from the program authors' published IDLs (pump-public-docs `idl/pump.json`,
 * `idl/pump_amm.json`, revision 2293f9a). The SDK versions this project can install predate them, so
 * the emulation cannot decode them with the SDK's IDL; test/localnet/fixtures/ records the same facts
 * independently and a test compares both.
 */

/** One account of an instruction's list. */
export interface UpgradeAccountSpec {
  name: string;
  writable: boolean;
  signer: boolean;
}

/** Argument kinds the new instructions use. */
export type UpgradeArgKind = "u64" | "OptionBool";

/** One instruction the upgrade added. */
export interface UpgradeInstructionSpec {
  program: "launch" | "launchswap";
  name: string;
  discriminator: readonly number[];
  accounts: readonly UpgradeAccountSpec[];
  args: readonly { name: string; kind: UpgradeArgKind; optional?: boolean }[];
}

/** `name`, `name:W`, `name:S` or `name:WS` → spec. */
function accounts(list: string): UpgradeAccountSpec[] {
  return list
    .trim()
    .split(/\s+/)
    .map((entry) => {
      const [name, flags = ""] = entry.split(":");
      return { name: name!, writable: flags.includes("W"), signer: flags.includes("S") };
    });
}

/** The 17 accounts of buy_v3 / sell_v3 / buy_exact_quote_in_v3 (TRADE_V3.md, idl/pump.json). */
export const CURVE_V3_ACCOUNTS = accounts(`
  global base_mint quote_mint base_token_program quote_token_program bonding_curve:W
  associated_base_bonding_curve:W associated_quote_bonding_curve:W user:WS associated_base_user:W
  associated_quote_user:W user_volume_accumulator:W fee_config buyback_fee_recipient:W system_program
  event_authority program`);

/** The 13 accounts of the curve's sweep_protocol_fee / sweep_creator_fee (SWEEP_FEES.md). */
export const CURVE_SWEEP_ACCOUNTS = accounts(`
  payer:WS global base_mint quote_mint quote_token_program associated_token_program system_program
  bonding_curve:W associated_quote_bonding_curve:W recipient:W associated_quote_recipient:W
  event_authority program`);

/** The 17 accounts of the swap program's buy_v2 / sell_v2 / buy_exact_quote_in_v2 (PUMP_SWAP_TRADE_V2.md). */
export const SWAP_V2_ACCOUNTS = accounts(`
  pool:W user:WS global_config base_mint quote_mint user_base_token_account:W user_quote_token_account:W
  pool_base_token_account:W pool_quote_token_account:W base_token_program quote_token_program
  system_program user_volume_accumulator:W fee_config buyback_fee_recipient:W event_authority program`);

/** The 12 accounts of the swap program's sweep_protocol_fee / sweep_creator_fee (SWEEP_FEES.md). */
export const POOL_SWEEP_ACCOUNTS = accounts(`
  payer:WS global_config pool:W quote_mint quote_token_program pool_quote_token_account:W recipient
  recipient_token_account:W system_program associated_token_program event_authority program`);

const u64 = (name: string) => ({ name, kind: "u64" as const });
const partialFill = { name: "partial_fill", kind: "OptionBool" as const, optional: true };

/** Every instruction the October 2026 upgrade added, on both programs. */
export const UPGRADE_INSTRUCTIONS: readonly UpgradeInstructionSpec[] = [
  {
    program: "launch",
    name: "buy_v3",
    discriminator: [7, 5, 29, 196, 245, 23, 101, 80],
    accounts: CURVE_V3_ACCOUNTS,
    args: [u64("amount"), u64("max_sol_cost"), partialFill],
  },
  {
    program: "launch",
    name: "buy_exact_quote_in_v3",
    discriminator: [225, 247, 80, 30, 213, 179, 132, 136],
    accounts: CURVE_V3_ACCOUNTS,
    args: [u64("spendable_quote_in"), u64("min_tokens_out"), partialFill],
  },
  {
    program: "launch",
    name: "sell_v3",
    discriminator: [28, 146, 222, 119, 38, 196, 105, 213],
    accounts: CURVE_V3_ACCOUNTS,
    args: [u64("amount"), u64("min_sol_output")],
  },
  {
    program: "launch",
    name: "sweep_protocol_fee",
    discriminator: [8, 48, 190, 7, 182, 68, 183, 229],
    accounts: CURVE_SWEEP_ACCOUNTS,
    args: [],
  },
  {
    program: "launch",
    name: "sweep_creator_fee",
    discriminator: [32, 246, 191, 52, 8, 201, 73, 186],
    accounts: CURVE_SWEEP_ACCOUNTS,
    args: [],
  },
  {
    program: "launchswap",
    name: "buy_v2",
    discriminator: [184, 23, 238, 97, 103, 197, 211, 61],
    accounts: SWAP_V2_ACCOUNTS,
    args: [u64("base_amount_out"), u64("max_quote_amount_in")],
  },
  {
    program: "launchswap",
    name: "buy_exact_quote_in_v2",
    discriminator: [194, 171, 28, 70, 104, 77, 91, 47],
    accounts: SWAP_V2_ACCOUNTS,
    args: [u64("spendable_quote_in"), u64("min_base_amount_out")],
  },
  {
    program: "launchswap",
    name: "sell_v2",
    discriminator: [93, 246, 130, 60, 231, 233, 64, 178],
    accounts: SWAP_V2_ACCOUNTS,
    args: [u64("base_amount_in"), u64("min_quote_amount_out")],
  },
  {
    program: "launchswap",
    name: "sweep_protocol_fee",
    discriminator: [8, 48, 190, 7, 182, 68, 183, 229],
    accounts: POOL_SWEEP_ACCOUNTS,
    args: [],
  },
  {
    program: "launchswap",
    name: "sweep_creator_fee",
    discriminator: [32, 246, 191, 52, 8, 201, 73, 186],
    accounts: POOL_SWEEP_ACCOUNTS,
    args: [],
  },
];

/** A decoded upgrade instruction: its spec and arguments (u64 as bigint, OptionBool as boolean | null). */
export interface DecodedUpgradeInstruction {
  spec: UpgradeInstructionSpec;
  args: Record<string, bigint | boolean | null>;
}

/** Why decoding failed: no such instruction, or its data does not deserialize. */
export type UpgradeDecodeFailure = "unknown" | "malformed";

/**
 * Decodes `data` as one of `program`'s upgrade instructions. Trailing optional arguments may be left
 * off (Anchor reads a missing OptionBool as None); anything else short, or bytes left over, is malformed.
 */
export function decodeUpgradeInstruction(
  program: "launch" | "launchswap",
  data: Uint8Array,
): DecodedUpgradeInstruction | UpgradeDecodeFailure {
  if (data.length < 8) return "unknown";
  const spec = UPGRADE_INSTRUCTIONS.find(
    (s) => s.program === program && s.discriminator.every((b, i) => data[i] === b),
  );
  if (!spec) return "unknown";
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const args: DecodedUpgradeInstruction["args"] = {};
  let offset = 8;
  for (const arg of spec.args) {
    if (arg.kind === "u64") {
      if (offset + 8 > data.length) return "malformed";
      args[arg.name] = view.getBigUint64(offset, true);
      offset += 8;
    } else {
      if (offset >= data.length && arg.optional) {
        args[arg.name] = null;
        continue;
      }
      const b = data[offset];
      if (b !== 0 && b !== 1) return "malformed";
      args[arg.name] = b === 1;
      offset += 1;
    }
  }
  return offset === data.length ? { spec, args } : "malformed";
}

/** Encodes an upgrade instruction's data (what a client builds): discriminator then the arguments. */
export function encodeUpgradeInstruction(
  spec: UpgradeInstructionSpec,
  args: Record<string, bigint | boolean | null | undefined>,
): Buffer {
  const parts: Buffer[] = [Buffer.from(spec.discriminator)];
  for (const arg of spec.args) {
    const v = args[arg.name];
    if (arg.kind === "u64") {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(typeof v === "bigint" ? v : 0n);
      parts.push(b);
    } else if (v !== null && v !== undefined) parts.push(Buffer.from([v === true ? 1 : 0]));
  }
  return Buffer.concat(parts);
}

/** The spec of `program`'s instruction `name` (throws when there is none: a programming error). */
export function upgradeSpec(program: "launch" | "launchswap", name: string): UpgradeInstructionSpec {
  const spec = UPGRADE_INSTRUCTIONS.find((s) => s.program === program && s.name === name);
  if (!spec) throw new Error(`no upgrade instruction ${program}.${name}`);
  return spec;
}
