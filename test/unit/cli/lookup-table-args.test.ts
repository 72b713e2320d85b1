/** Flags and key files of `npm run lookup-table`: both key formats, and errors that never quote the key. */
import bs58 from "bs58";
import fc from "fast-check";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { parseLookupTableArgs, parseSecretKeyFile, UsageError } from "../../../src/cli/lookup-table-args.js";

const ADDRESS = Keypair.generate().publicKey;

describe("parseLookupTableArgs", () => {
  it("reads --authority and --table, spaced or with =", () => {
    expect(parseLookupTableArgs(["--authority", "k.json"])).toEqual({
      authorityPath: "k.json",
      table: undefined,
    });
    const both = parseLookupTableArgs([`--table=${ADDRESS.toBase58()}`, "--authority=/a/k.json"]);
    expect(both.authorityPath).toBe("/a/k.json");
    expect(both.table?.equals(ADDRESS)).toBe(true);
  });

  it.each([
    [[], "--authority <key file> is required"],
    [["--authority"], "--authority needs a value"],
    [["--authority", "--table", "x"], "--authority needs a value"],
    [["--authority="], "--authority needs a value"],
    [["--authority", "a", "--authority", "b"], "--authority given twice"],
    [["--authority", "a", "extra"], 'unknown argument "extra"'],
    [
      ["--authority", "a", "--table", "not-an-address!"],
      '--table is not a base58 address: "not-an-address!"',
    ],
  ])("refuses %j", (argv, message) => {
    expect(() => parseLookupTableArgs(argv)).toThrow(new UsageError(message));
  });
});

describe("parseSecretKeyFile", () => {
  it("reads a solana-keygen JSON array and a base58 secret (surrounding whitespace allowed)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.constantFrom("", "\n", "  \n"),
        (bytes, ws) => {
          expect(parseSecretKeyFile(`${JSON.stringify(Array.from(bytes))}${ws}`, "k")).toEqual(bytes);
          expect(parseSecretKeyFile(`${ws}${bs58.encode(bytes)}${ws}`, "k")).toEqual(bytes);
        },
      ),
    );
  });

  it("refuses other lengths and values, naming the file but never its content", () => {
    const secret = bs58.encode(Keypair.generate().secretKey);
    const cases: [string, RegExp][] = [
      [JSON.stringify(new Array(63).fill(1)), /does not hold 64 numbers/],
      [JSON.stringify(new Array(64).fill(256)), /outside 0\.\.255/],
      [JSON.stringify(new Array(64).fill(1.5)), /outside 0\.\.255/],
      [`[${secret}`, /is not valid JSON/],
      [secret.slice(0, 40), /decodes to \d+ bytes, not 64/],
      [`${secret}0`, /neither a JSON array nor base58/],
    ];
    for (const [text, why] of cases) {
      let error: unknown;
      try {
        parseSecretKeyFile(text, "/keys/op.json");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UsageError);
      const message = (error as Error).message;
      expect(message).toMatch(why);
      expect(message).toMatch(/^key file \/keys\/op\.json /);
      expect(message).not.toContain(secret.slice(0, 20));
    }
  });
});
