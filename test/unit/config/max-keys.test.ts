/** Issue 29: MAX_KEYS_PER_ACCOUNT, default 100, 1 to 100000. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config.js";

describe("MAX_KEYS_PER_ACCOUNT", () => {
  it("defaults to 100 and takes an override", () => {
    expect(loadConfig({}).hardening.maxKeysPerAccount).toBe(100);
    expect(loadConfig({ MAX_KEYS_PER_ACCOUNT: "5" }).hardening.maxKeysPerAccount).toBe(5);
  });

  it.each(["0", "-1", "abc", "100001", "1.5"])("refuses %j, naming the variable", (v) => {
    let err: unknown;
    try {
      loadConfig({ MAX_KEYS_PER_ACCOUNT: v });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe("MAX_KEYS_PER_ACCOUNT");
  });
});
