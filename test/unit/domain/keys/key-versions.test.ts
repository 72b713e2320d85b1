/**
 * keyVersionsOf: what a fire's claim compares with the key rows at its commit (`<rows>:<sum of versions>` over the
 * key, the keys above it and the root, each once), for a root key, a sub-key and a sub-key made by sub-keys.
 */
import { describe, expect, it } from "vitest";
import { keyVersionsOf, liveKeysOf } from "../../../../src/domain/keys/fire-custody.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const key = (over: Partial<KeyRecord>): KeyRecord =>
  keyRecord({ id: 1, root: true, name: "root", scopes: null, createdAt: "2026-11-29T00:00:00.000", ...over });

describe("keyVersionsOf", () => {
  it("a root key: its own row", () => {
    const k = key({ version: 4, rootVersion: 4 });
    expect(liveKeysOf(k)).toEqual([1]);
    expect(keyVersionsOf(k)).toBe("1:4");
  });

  it("a sub-key: its row and the root's", () => {
    const k = key({ id: 5, root: false, version: 2, rootVersion: 7 });
    expect(liveKeysOf(k)).toEqual([5, 1]);
    expect(keyVersionsOf(k)).toBe("2:9");
  });

  it("a sub-key made by sub-keys: every row of the chain once", () => {
    const parent = key({ id: 3, root: false, version: 1, rootVersion: 7, createdBy: null });
    const k = key({ id: 5, root: false, version: 2, rootVersion: 7, createdBy: 3, ancestors: [parent] });
    expect(liveKeysOf(k)).toEqual([5, 3, 1]);
    expect(keyVersionsOf(k)).toBe("3:10");
    // Any one row counted up moves the sum.
    expect(keyVersionsOf({ ...k, ancestors: [{ ...parent, version: 2 }] })).toBe("3:11");
  });
});
