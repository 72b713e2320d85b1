/** Read retries bounded by a time budget (RetryPolicy.budgetMs), as the chain layer uses them. */
import { describe, expect, it } from "vitest";
import { createJsonRpcTransport, type FetchLike, type RetryPolicy } from "../../../src/chain/json-rpc.js";
import { HttpError } from "../../../src/chain/upstream-errors.js";

/** A fetch that fails the first `failures` calls with 429, then answers 7; each call costs `costMs` of fake time. */
function flaky(failures: number, clock: { t: number }, costMs: number) {
  let calls = 0;
  const fetch: FetchLike = (_url, init) => {
    calls++;
    clock.t += costMs;
    const id = (JSON.parse(init.body) as { id: number }).id;
    return Promise.resolve(
      calls <= failures
        ? { status: 429, text: () => Promise.resolve("slow down") }
        : { status: 200, text: () => Promise.resolve(`{"jsonrpc":"2.0","id":${id},"result":7}`) },
    );
  };
  return { fetch, calls: () => calls };
}

function policy(clock: { t: number }, budgetMs: number | undefined, retries = 9): RetryPolicy {
  return {
    retries,
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    baseDelayMs: 50,
    maxDelayMs: 1000,
    random: () => 0.5,
    now: () => clock.t,
    sleep: (ms) => {
      clock.t += ms;
      return Promise.resolve();
    },
  };
}

describe("read retry budget", () => {
  it("keeps retrying transient failures while the budget lasts", async () => {
    const clock = { t: 0 };
    const f = flaky(6, clock, 10);
    const transport = createJsonRpcTransport({ url: "http://rpc.test", timeoutMs: 1000, fetch: f.fetch });
    expect(await transport.callWithRetry("getSlot", [], policy(clock, 5_000))).toBe(7);
    expect(f.calls()).toBe(7);
  });

  it("gives up with the upstream error once the next wait would overrun the budget", async () => {
    const clock = { t: 0 };
    const f = flaky(100, clock, 10);
    const transport = createJsonRpcTransport({ url: "http://rpc.test", timeoutMs: 1000, fetch: f.fetch });
    const err = await transport.callWithRetry("getSlot", [], policy(clock, 500)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    // Waits of 25, 50, 100, 200 ms (random 0.5 under a doubling ceiling) fit 500 ms with the calls; 400 does not.
    expect(f.calls()).toBe(5);
    expect(clock.t).toBeLessThan(500);
  });

  it("is bounded by the retry count alone without a budget", async () => {
    const clock = { t: 0 };
    const f = flaky(100, clock, 10);
    const transport = createJsonRpcTransport({ url: "http://rpc.test", timeoutMs: 1000, fetch: f.fetch });
    await expect(transport.callWithRetry("getSlot", [], policy(clock, undefined, 3))).rejects.toBeInstanceOf(
      HttpError,
    );
    expect(f.calls()).toBe(4);
  });
});
