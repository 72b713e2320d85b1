import { describe, expect, it } from "vitest";
import { loadEventSettings } from "../../../src/config/events.js";

describe("event settings: webhook timing (issue 20, tests and soak runs)", () => {
  it("defaults: the issue's schedule, 10 s per attempt, 20 s lease margin", () => {
    const s = loadEventSettings({});
    expect(s.webhookRetryDelaysMs).toBeUndefined();
    expect(s.webhookTimeoutMs).toBe(10_000);
    expect(s.webhookLeaseMarginMs).toBe(20_000);
  });

  it("WEBHOOK_RETRY_DELAYS_MS: comma-separated milliseconds, spaces allowed", () => {
    const s = loadEventSettings({ WEBHOOK_RETRY_DELAYS_MS: "500, 1000,2000" });
    expect(s.webhookRetryDelaysMs).toEqual([500, 1000, 2000]);
  });

  it.each([
    ["", undefined],
    ["0", 'must be comma-separated milliseconds between 1 and 86400000, got "0"'],
    ["100,,200", 'must be comma-separated milliseconds between 1 and 86400000, got ""'],
    ["1s", 'must be comma-separated milliseconds between 1 and 86400000, got "1s"'],
    ["86400001", 'must be comma-separated milliseconds between 1 and 86400000, got "86400001"'],
    [Array(51).fill("1").join(","), "must list at most 50 delays"],
  ])("WEBHOOK_RETRY_DELAYS_MS=%j", (v, problem) => {
    const load = () => loadEventSettings({ WEBHOOK_RETRY_DELAYS_MS: v });
    if (problem === undefined) expect(load().webhookRetryDelaysMs).toBeUndefined();
    else expect(load).toThrow(`invalid configuration: WEBHOOK_RETRY_DELAYS_MS ${problem}`);
  });

  it("WEBHOOK_TIMEOUT_MS and WEBHOOK_LEASE_MARGIN_MS are bounded integers", () => {
    const s = loadEventSettings({ WEBHOOK_TIMEOUT_MS: "1500", WEBHOOK_LEASE_MARGIN_MS: "500" });
    expect([s.webhookTimeoutMs, s.webhookLeaseMarginMs]).toEqual([1500, 500]);
    expect(() => loadEventSettings({ WEBHOOK_TIMEOUT_MS: "50" })).toThrow(
      "invalid configuration: WEBHOOK_TIMEOUT_MS must be between 100 and 60000, got 50",
    );
  });

  it("WEBHOOK_ALLOW_PRIVATE is off unless set to true (the sandbox allows private addresses on its own)", () => {
    expect(loadEventSettings({}).webhookAllowPrivate).toBe(false);
    expect(loadEventSettings({ WEBHOOK_ALLOW_PRIVATE: "true" }).webhookAllowPrivate).toBe(true);
    expect(() => loadEventSettings({ WEBHOOK_ALLOW_PRIVATE: "yes" })).toThrow("WEBHOOK_ALLOW_PRIVATE");
  });

  it("MAX_WEBHOOKS_PER_ACCOUNT: default 20, a bounded integer (issue 29)", () => {
    expect(loadEventSettings({}).maxWebhooksPerAccount).toBe(20);
    expect(loadEventSettings({ MAX_WEBHOOKS_PER_ACCOUNT: "3" }).maxWebhooksPerAccount).toBe(3);
    expect(() => loadEventSettings({ MAX_WEBHOOKS_PER_ACCOUNT: "0" })).toThrow(
      "invalid configuration: MAX_WEBHOOKS_PER_ACCOUNT must be between 1 and 1000, got 0",
    );
  });
});
