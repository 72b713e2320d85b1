/** The doctor's PubSub check (issue 18) against the localnet: ok when notifications flow, fail when unreachable. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { checkPubSub } from "../../../src/doctor/pubsub-check.js";

let net: LocalnetHandle;
beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 50 });
});
afterAll(() => net.close());

describe("doctor: pubsub", () => {
  it("passes when the endpoint derived from RPC_URL confirms subscriptions and delivers", async () => {
    const r = await checkPubSub({ rpcUrl: net.rpcUrl }, 2_000);
    expect(r.status).toBe("ok");
    expect(r.detail).toMatch(/notifications delivered/);
  });

  it("fails, naming RPC_WS_URL, when nothing answers there", async () => {
    const r = await checkPubSub({ rpcUrl: net.rpcUrl, rpcWsUrl: "ws://127.0.0.1:9/" }, 500);
    expect(r.status).toBe("fail");
    expect(r.detail).toMatch(/^RPC_WS_URL ws:\/\/127.0.0.1:9\/ did not confirm/);
  });

  it("warns, subscriptions confirmed, when no notification arrives (slots not advancing)", async () => {
    // slotMs 0: the localnet's slots advance only with transactions, and the Global account does not change.
    const still = await startLocalnet({ port: 0, slotMs: 0 });
    try {
      const r = await checkPubSub({ rpcUrl: still.rpcUrl }, 500);
      expect(r.status).toBe("warn");
      expect(r.detail).toMatch(/subscriptions confirmed, but no notification within 500 ms/);
    } finally {
      await still.close();
    }
  });
});
