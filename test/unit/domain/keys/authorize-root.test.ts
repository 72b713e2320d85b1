/**
 * Issue 29: a root key's own `frozen` flag (set through /v1/keys by older data, before the root key became
 * untouchable) never locks the account; only the account freeze stops the root key, and it can lift that.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../src/core/errors.js";
import { keyView } from "../../../../src/domain/keys/keys.js";
import { authorize } from "../../../../src/domain/keys/scopes.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const now = new Date("2026-11-28T00:00:00Z");
const record = (over: Partial<KeyRecord>): KeyRecord =>
  keyRecord({ id: 1, root: true, name: "root", scopes: null, createdAt: now.toISOString(), ...over });

function refused(k: KeyRecord, scope: "keys" | "root"): number | undefined {
  try {
    authorize(k, scope, now);
    return undefined;
  } catch (err) {
    return (err as ApiError).status;
  }
}

describe("a root key's own frozen flag", () => {
  it("is ignored by authorize and shown as not frozen", () => {
    const root = record({ frozen: true });
    expect(refused(root, "keys")).toBeUndefined();
    expect(refused(root, "root")).toBeUndefined();
    expect(keyView(root).frozen).toBe(false);
  });

  it("a sub-key's flag and the account freeze still refuse", () => {
    const sub = record({ id: 2, root: false, scopes: ["keys"], frozen: true });
    expect(refused(sub, "keys")).toBe(403);
    expect(keyView(sub).frozen).toBe(true);
    const frozenAccount = record({ accountFrozen: true });
    expect(refused(frozenAccount, "root")).toBe(403);
    expect(keyView(frozenAccount).frozen).toBe(true);
  });
});
