/** Issue 29, finding 17: key names that pass for the root key or hide text are refused (400). */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../src/core/errors.js";
import { KEY_NAME, parseKeyName } from "../../../../src/domain/keys/key-names.js";

function refusal(v: unknown): string | undefined {
  try {
    parseKeyName(v);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    return (err as ApiError).message;
  }
}

describe("parseKeyName", () => {
  it("accepts ordinary names (trimmed), unicode letters and emoji included", () => {
    expect(parseKeyName("  trading bot ")).toBe("trading bot");
    expect(parseKeyName("rooted")).toBe("rooted");
    expect(parseKeyName("root bot")).toBe("root bot");
    expect(parseKeyName("ботик-ä-日本")).toBe("ботик-ä-日本");
    expect(parseKeyName("🤖")).toBe("🤖");
  });

  it.each(["root", "ROOT", " Root ", "rOoT", "ｒｏｏｔ"])("refuses %j (the root key's name)", (name) => {
    expect(refusal(name)).toBe(KEY_NAME.reserved);
  });

  const forbidden: [string, string][] = [
    ["newline", "a\nb"],
    ["carriage return", "a\rb"],
    ["tab", "a\tb"],
    ["NUL", "a\u0000b"],
    ["DEL", "a\u007fb"],
    ["C1 control", "a\u0085b"],
    ["line separator", "a\u2028b"],
    ["paragraph separator", "a\u2029b"],
    ["LRM", "a\u200eb"],
    ["RLM", "a\u200fb"],
    ["ALM", "a\u061cb"],
    ...["\u202a", "\u202b", "\u202c", "\u202d", "\u202e"].map((c): [string, string] => [
      `bidi U+${c.codePointAt(0)!.toString(16)}`,
      `bot${c}toor`,
    ]),
    ...["\u2066", "\u2067", "\u2068", "\u2069"].map((c): [string, string] => [
      `isolate U+${c.codePointAt(0)!.toString(16)}`,
      `bot${c}x`,
    ]),
    ["ZWSP", "ro\u200bot"],
    ["ZWNJ", "ro\u200cot"],
    ["ZWJ", "ro\u200dot"],
    ["word joiner", "ro\u2060ot"],
    ["BOM", "\ufeffroot"],
    ["trailing newline", "root\n"],
  ];
  it.each(forbidden)("refuses a name with a %s", (_label, name) => {
    expect(refusal(name)).toBe(KEY_NAME.characters);
  });

  it("keeps the old texts for a missing, empty or too long name", () => {
    const text = "name is required: a string of 1 to 64 characters";
    for (const v of [undefined, 5, "", "   ", "x".repeat(65)]) expect(refusal(v)).toBe(text);
  });
});
