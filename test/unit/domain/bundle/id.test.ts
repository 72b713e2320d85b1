import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { bundleIdOf } from "../../../../src/domain/bundle/service.js";

describe("bundleIdOf", () => {
  it("is the hex SHA-256 of the comma-joined first signatures, in bundle order", () => {
    const sigs = ["5j7s", "3xYz", "9abc"];
    expect(bundleIdOf(sigs)).toBe(createHash("sha256").update("5j7s,3xYz,9abc").digest("hex"));
    expect(bundleIdOf(sigs)).toMatch(/^[0-9a-f]{64}$/);
    expect(bundleIdOf([...sigs].reverse())).not.toBe(bundleIdOf(sigs));
  });
});
