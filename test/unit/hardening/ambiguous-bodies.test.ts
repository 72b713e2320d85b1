/** Issue 23: duplicate keys are refused by the body parser, an alias that disagrees with its field is a 400. */
import { describe, expect, it } from "vitest";
import { fieldOf } from "../../../src/core/request-fields.js";
import { parseTradeRequest } from "../../../src/domain/trade/request.js";
import { FOUNDATION, HARDENING, HTTP_INPUT } from "../../../src/core/errors.js";
import { parseJsonBody } from "../../../src/http/hooks/json-body.js";
import { hasDuplicateKey } from "../../../src/http/hooks/json-scan.js";

const MINT = "So11111111111111111111111111111111111111112";

describe("duplicate keys", () => {
  it("are found at any depth, also when escaped, never inside strings or across objects", () => {
    expect(hasDuplicateKey('{"amount":1,"amount":2}')).toBe(true);
    expect(hasDuplicateKey('{"a":{"b":1,"\\u0062":2}}')).toBe(true);
    expect(hasDuplicateKey('{"accounts":[{"type":"buy"},{"type":"sell"}]}')).toBe(false);
    expect(hasDuplicateKey('{"a":"x,\\"a\\":1","b":{"a":1}}')).toBe(false);
    expect(hasDuplicateKey('[{"a":1,"a":1}]')).toBe(true);
  });

  it("make the body parser answer 400", () => {
    expect(() => parseJsonBody('{"amount":"1","amount":"100"}')).toThrow("request body repeats a key");
    expect(parseJsonBody('{"amount":"1"}')).toEqual({ amount: "1" });
  });
});

describe("the body parser's one scan (issue 18)", () => {
  it("drops __proto__ keys at any depth, also when escaped, and leaves them in strings", () => {
    const parsed = parseJsonBody('{"__proto__":{"polluted":true},"a":[{"\\u005f_proto__":1,"b":2}]}') as {
      a: object[];
    };
    expect(Object.keys(parsed)).toEqual(["a"]);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(parsed.a[0]).toEqual({ b: 2 });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(parseJsonBody('{"note":"__proto__"}')).toEqual({ note: "__proto__" });
  });

  it("keeps the error order: depth, then invalid JSON, then a repeated key", () => {
    const deep = "[".repeat(33) + "]".repeat(33);
    expect(() => parseJsonBody(`{"a":1,"a":2,"d":${deep}`)).toThrow(HTTP_INPUT.nestedTooDeep);
    expect(() => parseJsonBody('{"a":1,"a":2')).toThrow(FOUNDATION.invalidJson);
    expect(() => parseJsonBody('{"\\q":1,"\\q":2}')).toThrow(FOUNDATION.invalidJson);
    expect(() => parseJsonBody('{"a":1,"a":2}')).toThrow(HARDENING.duplicateKey);
    // A closer without its opener lowers the depth, as the depth rule always counted.
    expect(() => parseJsonBody("]" + "[".repeat(33))).toThrow(FOUNDATION.invalidJson);
  });
});

describe("aliases", () => {
  it("that agree are fine; that disagree are a 400 naming both", () => {
    expect(fieldOf({ action: "buy", side: "buy" }, ["action", "side"])).toBe("buy");
    expect(() => fieldOf({ action: "buy", side: "sell" }, ["action", "side"])).toThrow(
      "side and action name the same field and disagree; send one of them",
    );
    expect(fieldOf({ action: "buy", side: null }, ["action", "side"])).toBe("buy");
  });

  it("reach the trade parser: action/side and mint/token_mint", () => {
    expect(() => parseTradeRequest({ action: "buy", side: "sell", mint: MINT, amount: "0.1" })).toThrow(
      /side and action/,
    );
    expect(() =>
      parseTradeRequest({
        action: "buy",
        mint: MINT,
        token_mint: "11111111111111111111111111111111",
        amount: "1",
      }),
    ).toThrow(/token_mint and mint/);
  });
});
