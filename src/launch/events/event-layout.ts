/**
 * What the direct event reads (trade-event-direct.ts, pool-trade-direct.ts) share: an event's borsh layout as a
 * table of IDL fields, walked once per body to find each field's offset, and the load-time comparison of such a
 * table with an IDL's event type. A walk accepts a body only when it is exactly the layout followed by one of the
 * tails the caller names (bytes later program versions append and the event does not carry); any other body is
 * refused so the caller falls back to the SDK's decoder.
 */
import { isUtf8 } from "node:buffer";
import { encodeBase58 } from "../../core/base58.js";

/** A field's type as the IDL names it; `vec` is a u32 count of fixed-size items (the item size is the layout's). */
export type FieldType = "pubkey" | "u64" | "i64" | "i128" | "bool" | "string" | "vec";

/** An IDL type's fields as Anchor's JSON gives them. */
export type IdlField = { name: string; type: unknown };

/** The fields of type `name` in `idl` (an Anchor IDL's JSON), or undefined. */
export function idlFields(idl: unknown, name: string): readonly IdlField[] | undefined {
  const types = (idl as { types?: { name: string; type: { fields?: IdlField[] } }[] }).types;
  return types?.find((t) => t.name === name)?.type.fields;
}

/** Whether `fields` are exactly `expected` (names and IDL types, in order). */
export function sameFields(
  fields: readonly IdlField[] | undefined,
  expected: readonly (readonly [string, unknown])[],
): boolean {
  return (
    fields?.length === expected.length &&
    expected.every(
      ([name, type], i) =>
        fields[i]!.name === name && JSON.stringify(fields[i]!.type) === JSON.stringify(type),
    )
  );
}

const FIXED = 0;
const BOOL = 1;
const STRING = 2;
const VEC = 3;
const WIDTH = { pubkey: 32, u64: 8, i64: 8, i128: 16, bool: 1, string: 0, vec: 0 } as const;

/** One event's walk: its field kinds and widths, and where the last walk found each field (reused: synchronous). */
export class EventLayout<Name extends string> {
  private readonly kind: Uint8Array;
  private readonly size: Uint8Array;
  private readonly at: Int32Array;
  private readonly index: Record<Name, number>;

  /** `tails`: the byte counts a body may carry past the last field; `vecItem`: the size of a `vec` field's items. */
  constructor(
    fields: readonly (readonly [Name, FieldType])[],
    private readonly tails: readonly number[],
    private readonly vecItem = 0,
  ) {
    this.kind = Uint8Array.from(fields, ([, t]) =>
      t === "bool" ? BOOL : t === "string" ? STRING : t === "vec" ? VEC : FIXED,
    );
    this.size = Uint8Array.from(fields, ([, t]) => WIDTH[t]);
    this.at = new Int32Array(fields.length);
    this.index = Object.fromEntries(fields.map(([name], i) => [name, i])) as Record<Name, number>;
  }

  /**
   * Finds each field's offset in `body`; false unless the body is exactly the layout plus one of the tails, with
   * every bool 0 or 1 and every string valid UTF-8 (the cases where the SDK's coder reads the same values; it
   * does not refuse bad UTF-8, it substitutes).
   */
  walk(body: Buffer): boolean {
    const { kind, size, at } = this;
    const length = body.length;
    let o = 0;
    for (let i = 0; i < kind.length; i++) {
      at[i] = o;
      switch (kind[i]) {
        case BOOL:
          if (o >= length || body[o]! > 1) return false;
          o += 1;
          break;
        case STRING: {
          if (o + 4 > length) return false;
          const end = o + 4 + body.readUInt32LE(o);
          if (end > length || !isUtf8(body.subarray(o + 4, end))) return false;
          o = end;
          break;
        }
        case VEC:
          if (o + 4 > length) return false;
          o += 4 + body.readUInt32LE(o) * this.vecItem;
          if (o > length) return false;
          break;
        default:
          o += size[i]!;
      }
    }
    return this.tails.includes(length - o);
  }

  /** Where the last walk found `name`. */
  offset(name: Name): number {
    return this.at[this.index[name]]!;
  }
  /** A u64 field of the last walked body. */
  u64(body: Buffer, name: Name): bigint {
    return body.readBigUInt64LE(this.offset(name));
  }
  /** An i64 field of the last walked body. */
  i64(body: Buffer, name: Name): bigint {
    return body.readBigInt64LE(this.offset(name));
  }
  /** A bool field of the last walked body (the walk proved it 0 or 1). */
  bool(body: Buffer, name: Name): boolean {
    return body[this.offset(name)] === 1;
  }
  /** A string field of the last walked body (the walk proved it valid UTF-8). */
  text(body: Buffer, name: Name): string {
    const o = this.offset(name);
    return body.toString("utf8", o + 4, o + 4 + body.readUInt32LE(o));
  }
  /** A pubkey field of the last walked body, in base58. */
  key(body: Buffer, name: Name): string {
    const o = this.offset(name);
    return encodeBase58(body.subarray(o, o + 32));
  }
  /** Whether a pubkey field of the last walked body is the zero key. */
  zeroKey(body: Buffer, name: Name): boolean {
    const o = this.offset(name);
    for (let i = o; i < o + 32; i++) if (body[i] !== 0) return false;
    return true;
  }
}
