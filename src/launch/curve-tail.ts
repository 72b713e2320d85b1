/**
 * The bonding-curve fields appended after the 125 bytes the installed SDK decodes (creator_fee and
 * protocol_fees kept by v3 trades, depth, the post-complete buy of a synthetic migration), at the offsets
 * of the recorded IDL. Size-agnostic: curves are 125, 151, 166 or 256 bytes and grow, so a field the
 * account is too short for reads as 0 ("read the missing trailing fields as 0", SWEEP_FEES.md).
 */
import { CURVE_TAIL_FIELDS } from "./upgrade-idl.js";
import { toBuffer, type RawData } from "./state.js";

/** The appended curve fields (all 0 on an account written before they existed). */
export interface CurveTail {
  readonly creatorFee: bigint;
  readonly protocolFees: bigint;
  readonly depth: number;
  readonly initialVirtualQuoteReserves: bigint;
  readonly postCompleteBaseOut: bigint;
  readonly postCompleteQuoteIn: bigint;
}

function at(bytes: Buffer, name: string): bigint {
  const f = CURVE_TAIL_FIELDS.find((x) => x.name === name);
  if (f === undefined) throw new Error(`curve field ${name} is not recorded`);
  const width = f.type === "u64" ? 8 : 1;
  if (bytes.length < f.offset + width) return 0n;
  return f.type === "u64" ? bytes.readBigUInt64LE(f.offset) : BigInt(bytes[f.offset]!);
}

/** Decodes the appended fields of a curve account of any length. */
export function decodeCurveTail(data: RawData): CurveTail {
  const bytes = toBuffer(data);
  return {
    creatorFee: at(bytes, "creator_fee"),
    protocolFees: at(bytes, "protocol_fees"),
    depth: Number(at(bytes, "depth")),
    initialVirtualQuoteReserves: at(bytes, "initial_virtual_quote_reserves"),
    postCompleteBaseOut: at(bytes, "post_complete_base_out"),
    postCompleteQuoteIn: at(bytes, "post_complete_quote_in"),
  };
}
