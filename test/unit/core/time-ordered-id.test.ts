import { describe, expect, it } from "vitest";
import { timeOrderedUuid } from "../../../src/core/time-ordered-id.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("timeOrderedUuid", () => {
  it("is a version-7 UUID of the RFC variant, the same shape as a random one", () => {
    for (let i = 0; i < 1000; i++) {
      const id = timeOrderedUuid();
      expect(id).toMatch(UUID);
      expect(id).toHaveLength(36);
    }
  });

  it("starts with the time in milliseconds as 48 bits of hex", () => {
    const ms = Date.UTC(2026, 10, 26, 14, 0, 0, 123);
    const id = timeOrderedUuid(ms);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
    expect(timeOrderedUuid(0).slice(0, 13)).toBe("00000000-0000");
  });

  it("keeps the random UUID's bits after the version", () => {
    const id = timeOrderedUuid(1, () => "aaaaaaaa-bbbb-4ccc-9ddd-eeeeeeeeeeee");
    expect(id).toBe("00000000-0001-7ccc-9ddd-eeeeeeeeeeee");
  });

  it("sorts by time across milliseconds, as text", () => {
    const ids = Array.from({ length: 200 }, (_, i) => timeOrderedUuid(1_764_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
  });

  it("differs within one millisecond (74 random bits)", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(42)));
    expect(ids.size).toBe(10_000);
  });
});
