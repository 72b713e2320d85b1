/** fast-check arbitraries for hostile JSON values and texts: the leaves the request generators are built from. */
import fc from "fast-check";

/** Lone UTF-16 surrogates, which JSON.stringify escapes and a UTF-8 encoder turns into U+FFFD. */
export const loneSurrogate: fc.Arbitrary<string> = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((c) => String.fromCharCode(c));

/** Strings a parser trips on: numeric look-alikes, whitespace, control and bidi characters, emoji. */
const TRICKY_STRINGS = [
  "",
  " ",
  "\t\n",
  "\u0000",
  "\u202e",
  "\ufeff",
  "\ud800",
  "\udfff",
  "💥",
  "١٢٣",
  "０.５",
  "0x10",
  "0b1",
  "1e9",
  "1E-9",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "00.1",
  ".5",
  "5.",
  "1_000",
  " 1 ",
  "+1",
  "1,5",
  "0.0000000001",
  "18446744073709551616",
  "-1",
  "50%",
  "100%",
  "100.001%",
  "0%",
  "%",
  "0.5%%",
  "SOL",
  "sol",
  "true",
  "false",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "prototype",
  "buy",
  "sell",
  "create",
  "BUY",
  "../../etc/passwd",
  "%00",
  "<script>",
  "'; DROP TABLE wallets; --",
  "0OIl",
  "1".repeat(44),
  "z".repeat(88),
];

/** Numbers at the edges: huge, tiny, unsafe integers, negative zero, non-finite (JSON null). */
const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.1,
  1e-7,
  5e-324,
  1e21,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 64,
  Number.MAX_VALUE,
  Number.EPSILON,
  100,
  100.01,
  50,
  50.001,
  5000,
  5001,
];

/** Any string: printable unicode, any code point, ASCII controls, lone surrogates, known tricky texts. */
export function weirdString(extra: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 24 }),
    fc.string({ unit: "binary", maxLength: 24 }),
    fc.string({ unit: "binary-ascii", maxLength: 24 }),
    fc.string({
      unit: fc.oneof(loneSurrogate, fc.string({ unit: "grapheme-ascii", maxLength: 1 })),
      maxLength: 12,
    }),
    fc.constantFrom(...TRICKY_STRINGS),
    fc.nat({ max: 20_000 }).map((n) => "a".repeat(n)),
    ...(extra.length > 0 ? [fc.constantFrom(...extra)] : []),
  );
}

/** Any number JSON can carry (non-finite doubles become null once serialized), and big integers as strings. */
export const weirdNumber: fc.Arbitrary<number | string> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }).map((b) => b.toString()),
);

/** JSON values of any type, nested a few levels, with hostile leaves (`extra` adds known-valid strings). */
export function weirdValue(extra: readonly string[] = []): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: weirdString(extra) },
    { weight: 3, arbitrary: weirdNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 6, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.dictionary(weirdString(), tie("value"), { maxKeys: 5 }) },
    ),
  })).value;
}

/** `value` wrapped in `depth` arrays or objects (deep nesting that still fits the body limit). */
export function nest(value: unknown, depth: number, asObject: boolean): unknown {
  let v = value;
  for (let i = 0; i < depth; i += 1) v = asObject ? { a: v } : [v];
  return v;
}

/** JSON texts that are not valid JSON, or valid JSON of a shape no parser expects. */
export const RAW_JSON_TEXTS = [
  "{",
  "[",
  "}",
  "nul",
  "tru",
  '{"a":}',
  '{"a" 1}',
  "{'a': 1}",
  '{"a":1,}',
  "[1,]",
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  "\ufeff{}",
  "\u0000",
  '"just a string"',
  "42",
  "-0",
  "1e400",
  "-1e400",
  "null",
  "true",
  "[]",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"amount":1e400}',
  '{"amount":-1e400}',
  '{"amount":123456789012345678901234567890123456789}',
  '{"amount":0.0000000000000000000000000000001}',
  '{"name":"\\ud800","symbol":"\\udfff"}',
  '{"a":"\\u0000"}',
  '{"a":"\\uZZZZ"}',
  '{"a":1,"a":2}',
  "{}".padStart(5000, " "),
];
