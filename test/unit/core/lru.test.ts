import { describe, expect, it } from "vitest";
import { LruMap } from "../../../src/core/lru.js";

describe("LruMap", () => {
  it("drops the least recently used entry past its capacity; a read or a rewrite makes an entry the newest", () => {
    const m = new LruMap<string, number>(3);
    m.set("a", 1);
    m.set("b", 2);
    m.set("c", 3);
    expect(m.get("a")).toBe(1); // a is now the newest: b is the oldest
    m.set("d", 4);
    expect([m.has("a"), m.has("b"), m.has("c"), m.has("d")]).toEqual([true, false, true, true]);
    m.set("c", 30); // rewritten: newest; a is the oldest now
    m.set("e", 5);
    expect([m.has("a"), m.get("c"), m.size]).toEqual([false, 30, 3]);
  });

  it("has() leaves the order alone; delete() frees a place", () => {
    const m = new LruMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    expect(m.has("a")).toBe(true); // not a use: a stays the oldest
    m.set("c", 3);
    expect(m.has("a")).toBe(false);
    expect(m.delete("b")).toBe(true);
    expect(m.delete("b")).toBe(false);
    m.set("d", 4);
    expect([m.has("c"), m.has("d"), m.size]).toEqual([true, true, 2]);
    expect(m.get("zz")).toBeUndefined();
  });

  it("lists its entries least recently used first, and listing them is not a use", () => {
    const m = new LruMap<string, number>(3);
    m.set("a", 1);
    m.set("b", 2);
    m.set("c", 3);
    m.get("a");
    expect([...m.entries()]).toEqual([
      ["b", 2],
      ["c", 3],
      ["a", 1],
    ]);
    m.set("d", 4);
    expect([...m.entries()].map(([k]) => k)).toEqual(["c", "a", "d"]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    for (const c of [0, -1, 1.5, Number.NaN])
      expect(() => new LruMap(c)).toThrow("capacity must be a positive integer");
  });
});
