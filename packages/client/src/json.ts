/** Response bodies parsed without losing u64 precision: lamport fields become bigint, other numbers stay numbers. */
import { isInteger, parse } from "lossless-json";

/** Field names whose integer values are lamports or base units (u64 on the chain). */
export type LamportKey = `${string}_lamports` | "lamports" | "amount_units";

/** True for a field that holds lamports or base units. */
export function isLamportKey(key: string): boolean {
  return key.endsWith("_lamports") || key === "lamports" || key === "amount_units";
}

type NumberToBigint<V> = V extends number ? bigint : V;

/** A response type with every lamport field typed as bigint (see isLamportKey). */
export type WithBigints<T> = T extends readonly (infer U)[]
  ? WithBigints<U>[]
  : T extends object
    ? { [K in keyof T]: K extends LamportKey ? NumberToBigint<T[K]> : WithBigints<T[K]> }
    : T;

/** Parses a JSON body: integers under lamport keys become bigint, every other number a number. */
export function parseBody(text: string): unknown {
  return parse(
    text,
    (key, value) => (typeof value === "bigint" && !isLamportKey(key) ? Number(value) : value),
    (raw) => (isInteger(raw) ? BigInt(raw) : Number(raw)),
  );
}
