/** Issue 30: the service's own timestamps go out as RFC 3339 with Z, whatever form the store kept. */
import { describe, expect, it } from "vitest";
import { utcTimestamp, utcTimestampOrNull } from "../../../src/core/timestamps.js";

describe("utcTimestamp", () => {
  it("adds Z to a stored UTC time without zone and leaves a zoned one alone", () => {
    expect(utcTimestamp("2026-01-02T03:04:05.678")).toBe("2026-01-02T03:04:05.678Z");
    expect(utcTimestamp("2026-01-02T03:04:05")).toBe("2026-01-02T03:04:05Z");
    expect(utcTimestamp("2026-01-02T03:04:05.678Z")).toBe("2026-01-02T03:04:05.678Z");
    expect(utcTimestamp("2026-01-02T03:04:05+02:00")).toBe("2026-01-02T03:04:05+02:00");
    expect(utcTimestampOrNull(null)).toBeNull();
  });
});
