/** The `build` scope (outside wallets): held alone, or through `trade`; a trading key may hand it down. */
import { describe, expect, it } from "vitest";
import { powersExceeding, type KeyPowers } from "../../../../src/domain/keys/can-manage.js";
import { hasScope } from "../../../../src/domain/keys/scopes.js";

const key = (scopes: string[] | null): KeyPowers => ({
  id: 2,
  root: false,
  scopes,
  wallets: null,
  policy: {},
  expiresAt: null,
});

describe("the build scope", () => {
  it("is held by a build key, a trade key and an unscoped key; not by a read key", () => {
    expect(hasScope({ scopes: ["build"] }, "build")).toBe(true);
    expect(hasScope({ scopes: ["trade"] }, "build")).toBe(true);
    expect(hasScope({ scopes: null }, "build")).toBe(true);
    expect(hasScope({ scopes: ["read"] }, "build")).toBe(false);
    // Building does not give trading.
    expect(hasScope({ scopes: ["build"] }, "trade")).toBe(false);
  });

  it("a trade key may create a build-only key; a build key may not create a trade key", () => {
    expect(powersExceeding(key(["trade"]), key(["build"]))).toEqual([]);
    expect(powersExceeding(key(["build"]), key(["trade"]))).toEqual(["scopes trade"]);
  });
});
