import { describe, expect, it } from "vitest";
import { backoffDelay, deriveWsUrl } from "../../../src/chain/subscriptions/index.js";

describe("subscription backoff and URL", () => {
  it("doubles from the initial delay, never past the cap, with jitter between half and all", () => {
    const o = { initialMs: 100, maxMs: 1_000 };
    expect(backoffDelay(0, o, () => 1)).toBe(100);
    expect(backoffDelay(0, o, () => 0)).toBe(50);
    expect(backoffDelay(3, o, () => 1)).toBe(800);
    expect(backoffDelay(4, o, () => 1)).toBe(1_000);
    expect(backoffDelay(500, o, () => 1)).toBe(1_000);
  });

  it("derives the PubSub URL from the RPC URL", () => {
    expect(deriveWsUrl("http://127.0.0.1:8899")).toBe("ws://127.0.0.1:8899/");
    expect(deriveWsUrl("https://rpc.example.com/key/abc")).toBe("wss://rpc.example.com/key/abc");
    expect(() => deriveWsUrl("ftp://x")).toThrow(/cannot derive/);
  });
});
