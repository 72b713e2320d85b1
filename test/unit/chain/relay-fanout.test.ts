/** Fan-out: first acceptance wins, the others' failures are reported, and the all-failed error keeps "maybe sent". */
import { describe, expect, it } from "vitest";
import type { RelayClient } from "../../../src/chain/relay-client.js";
import { createFanOutRelay, relayErrorReason, type RelayObserver } from "../../../src/chain/relay-fanout.js";
import { HttpError, RpcError, TimeoutError, TransportError } from "../../../src/chain/upstream-errors.js";

const wire = new Uint8Array([1, 2, 3]);

function relay(behaviour: () => Promise<string>): RelayClient & { calls: Uint8Array[] } {
  const calls: Uint8Array[] = [];
  return {
    calls,
    sendTransaction: (w) => {
      calls.push(w);
      return behaviour();
    },
  };
}

function recorder(): RelayObserver & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    accepted: (r) => events.push(`ok ${r}`),
    failed: (r, reason) => events.push(`fail ${r} ${reason}`),
  };
}

const later = <T>(ms: number, v: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(v()), ms));

describe("createFanOutRelay", () => {
  it("sends the same bytes to every relay and resolves on the first acceptance", async () => {
    const slow = relay(() => later(200, () => "SIG"));
    const fast = relay(async () => "SIG");
    const obs = recorder();
    const fan = createFanOutRelay(
      [
        { name: "slow", client: slow },
        { name: "fast", client: fast },
      ],
      obs,
    );
    expect(await fan.sendTransaction(wire)).toBe("SIG");
    expect(slow.calls[0]).toBe(wire);
    expect(fast.calls[0]).toBe(wire);
    // Resolved while the slow relay had not answered yet.
    expect(obs.events).toEqual(["ok fast"]);
    await later(250, () => undefined);
    expect(obs.events).toEqual(["ok fast", "ok slow"]);
  });

  it("reports a failing relay and still resolves through another", async () => {
    const obs = recorder();
    const fan = createFanOutRelay(
      [
        {
          name: "down",
          client: relay(() => Promise.reject(new HttpError("sendTransaction", 500, "Internal error"))),
        },
        { name: "up", client: relay(() => later(20, () => "SIG")) },
      ],
      obs,
    );
    expect(await fan.sendTransaction(wire)).toBe("SIG");
    expect(obs.events).toEqual(["fail down http_5xx", "ok up"]);
  });

  it("when every relay refuses, throws a refusal; when one may have taken the bytes, throws that error", async () => {
    const refusing = createFanOutRelay(
      [
        { name: "a", client: relay(() => Promise.reject(new HttpError("sendTransaction", 400, "bad tip"))) },
        { name: "b", client: relay(() => Promise.reject(new RpcError("sendTransaction", -32602, "bad"))) },
      ],
      undefined,
    );
    await expect(refusing.sendTransaction(wire)).rejects.toBeInstanceOf(HttpError);
    const unsure = createFanOutRelay(
      [
        {
          name: "a",
          client: relay(() => Promise.reject(new HttpError("sendTransaction", 429, "slow down"))),
        },
        { name: "b", client: relay(() => Promise.reject(new TimeoutError("sendTransaction", 5))) },
      ],
      undefined,
    );
    await expect(unsure.sendTransaction(wire)).rejects.toBeInstanceOf(TimeoutError);
  });

  it("labels failures with a closed set of reasons", () => {
    expect(relayErrorReason(new HttpError("m", 429, ""))).toBe("http_429");
    expect(relayErrorReason(new HttpError("m", 403, ""))).toBe("http_4xx");
    expect(relayErrorReason(new HttpError("m", 503, ""))).toBe("http_5xx");
    expect(relayErrorReason(new RpcError("m", -1, ""))).toBe("rpc_error");
    expect(relayErrorReason(new TimeoutError("m", 1))).toBe("timeout");
    expect(relayErrorReason(new TransportError("m", "reset"))).toBe("transport");
    expect(relayErrorReason(new Error("x"))).toBe("transport");
  });
});
