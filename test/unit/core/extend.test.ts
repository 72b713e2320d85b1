import { describe, expect, it } from "vitest";
import { extend } from "../../../src/core/extend.js";

describe("extend", () => {
  it("is the spread literal: base's members, then extra's winning, in the same order", () => {
    const sym = Symbol("s");
    const base = { a: 1, b: 2, [sym]: 3, c: undefined };
    const cases: [object, object][] = [
      [base, { b: 20, d: 4 }],
      [base, {}],
      [{}, { x: 1 }],
      [Object.create({ inherited: 1 }, { own: { value: 2, enumerable: true } }), { z: 0 }],
    ];
    for (const [b, e] of cases) {
      const got = extend(b, e);
      const want = { ...b, ...e };
      expect(got).toEqual(want);
      expect(Reflect.ownKeys(got)).toEqual(Reflect.ownKeys(want));
      expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    }
    expect(extend(undefined as object | undefined, { x: 1 })).toEqual({ x: 1 });
    expect(base).toEqual({ a: 1, b: 2, [sym]: 3, c: undefined });
  });
});
