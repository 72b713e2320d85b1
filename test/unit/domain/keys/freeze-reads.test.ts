/**
 * Issue 30: a freeze (key or account) refuses every write and leaves reads open, so an operator can look at
 * what a frozen key holds; revocation and expiry still refuse everything. The activity row of a
 * `/v1/keys/:id…` request names the key it acted on.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../src/core/errors.js";
import { authorize, type Access } from "../../../../src/domain/keys/scopes.js";
import { targetKeyOf } from "../../../../src/http/hooks/custody.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const now = new Date("2026-11-28T00:00:00Z");
const sub = (over: Partial<KeyRecord>): KeyRecord =>
  keyRecord({ scopes: ["read", "trade"], createdAt: now.toISOString(), ...over });

function outcome(k: KeyRecord, scope: "read" | "trade", access: Access): string {
  try {
    authorize(k, scope, now, access);
    return "ok";
  } catch (err) {
    const e = err as ApiError;
    return `${e.status} ${String(e.extra.rule ?? "")}`.trim();
  }
}

describe("a frozen key", () => {
  it("reads within its scope and is refused every write", () => {
    for (const k of [
      sub({ frozen: true }),
      sub({ accountFrozen: true }),
      sub({ id: 1, root: true, accountFrozen: true }),
    ]) {
      expect(outcome(k, "read", "read")).toBe("ok");
      expect(outcome(k, "trade", "write")).toBe("403 frozen");
    }
    // Writes are the default: a caller that does not say is refused.
    expect(() => authorize(sub({ frozen: true }), "read", now)).toThrow(ApiError);
  });

  it("keeps its scope and the 401s of revocation and expiry on reads", () => {
    expect(outcome(sub({ frozen: true, scopes: ["trade"] }), "read", "read")).toBe("403 scope");
    expect(outcome(sub({ frozen: true, revokedAt: now.toISOString() }), "read", "read")).toBe("401");
    expect(outcome(sub({ frozen: true, expiresAt: "2026-11-27T00:00:00Z" }), "read", "read")).toBe("401");
  });
});

describe("targetKeyOf", () => {
  it("names the key of /v1/keys/:id routes only", () => {
    expect(targetKeyOf("/v1/keys/:id/freeze", { id: "7" })).toBe(7);
    expect(targetKeyOf("/v1/keys/:id", { id: "12" })).toBe(12);
    expect(targetKeyOf("/v1/keys/:id/policy", { id: "x" })).toBeNull();
    expect(targetKeyOf("/v1/keys/:id", { id: "99999999999" })).toBeNull();
    expect(targetKeyOf("/v1/keys", {})).toBeNull();
    expect(targetKeyOf("/v1/webhooks/:id", { id: "3" })).toBeNull();
    expect(targetKeyOf(undefined, undefined)).toBeNull();
  });
});
