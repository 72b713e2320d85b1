import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { Keypair, PublicKey } from "@solana/web3.js";
import { createRpcClient, HttpError, RpcError, TimeoutError } from "../../../src/chain/rpc-client.js";
import { backoffDelayMs, parseJsonWithBigInts, type FetchLike } from "../../../src/chain/json-rpc.js";

interface Call {
  url: string;
  method: string;
  params: unknown[];
}
type Reply = { status?: number; body: string } | "hang";

/** A fetch that answers from `handler` and records every JSON-RPC call. */
function fakeFetch(handler: (call: Call, n: number) => Reply) {
  const calls: Call[] = [];
  const fetch: FetchLike = (url, init) => {
    const req = JSON.parse(init.body) as { id: number; method: string; params: unknown[] };
    const call = { url, method: req.method, params: req.params };
    calls.push(call);
    const reply = handler(call, calls.length);
    if (reply === "hang") {
      return new Promise((_, reject) => {
        init.signal.addEventListener("abort", () => reject(init.signal.reason));
      });
    }
    const body = reply.body.replace('"id":0', `"id":${req.id}`);
    return Promise.resolve({ status: reply.status ?? 200, text: () => Promise.resolve(body) });
  };
  return { fetch, calls };
}

const ok = (result: string): Reply => ({ body: `{"jsonrpc":"2.0","id":0,"result":${result}}` });

function client(fetch: FetchLike, readRetries = 3, delays: number[] = []) {
  return createRpcClient({
    url: "http://rpc.test",
    timeoutMs: 50,
    readRetries,
    fetch,
    random: () => 0.999,
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
  });
}

const BALANCE = ok('{"context":{"slot":7},"value":123}');

describe("rpc client retries", () => {
  it("recovers reads from 429 and 500 answers", async () => {
    const f = fakeFetch((_, n) =>
      n === 1 ? { status: 429, body: "slow down" } : n === 2 ? { status: 500, body: "" } : BALANCE,
    );
    const res = await client(f.fetch).getBalance(Keypair.generate().publicKey);
    expect(res).toEqual({ slot: 7, value: 123n });
    expect(f.calls).toHaveLength(3);
  });

  it("gives up after readRetries extra attempts with the upstream status", async () => {
    const f = fakeFetch(() => ({ status: 503, body: "unavailable" }));
    const err = await client(f.fetch, 2)
      .getSlot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(503);
    expect(f.calls).toHaveLength(3);
  });

  it("backs off with full jitter under a doubling ceiling", async () => {
    const delays: number[] = [];
    const f = fakeFetch((_, n) => (n <= 3 ? { status: 429, body: "" } : ok("5")));
    await client(f.fetch, 3, delays).getSlot();
    // random() = 0.999 picks just under each ceiling: 50, 100, 200 ms.
    expect(delays).toEqual([49, 99, 199]);
  });

  it("never retries a send", async () => {
    const f = fakeFetch(() => ({ status: 500, body: "boom" }));
    await expect(client(f.fetch).sendTransaction(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(
      HttpError,
    );
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0]?.params[1]).toEqual({ encoding: "base64", skipPreflight: true, maxRetries: 0 });
  });

  it("does not retry a non-transient JSON-RPC error and keeps its code, message and data", async () => {
    const f = fakeFetch(() => ({
      body: '{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Invalid param","data":{"x":1}}}',
    }));
    const err = await client(f.fetch)
      .getSlot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: -32602, rpcMessage: "Invalid param", data: { x: 1 } });
    expect(f.calls).toHaveLength(1);
  });

  it("retries a transient JSON-RPC error (node behind)", async () => {
    const f = fakeFetch((_, n) =>
      n === 1
        ? { body: '{"jsonrpc":"2.0","id":0,"error":{"code":-32005,"message":"Node is behind"}}' }
        : ok("9"),
    );
    expect(await client(f.fetch).getSlot()).toBe(9);
  });

  it("times out a hanging call with TimeoutError and retries reads after it", async () => {
    const f = fakeFetch((_, n) => (n === 1 ? "hang" : ok("11")));
    expect(await client(f.fetch).getSlot()).toBe(11);
    const g = fakeFetch(() => "hang");
    const err = await client(g.fetch, 1)
      .getSlot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(g.calls).toHaveLength(2);
  });

  it("reports connection failures as transient transport errors", async () => {
    let n = 0;
    const fetch: FetchLike = () => {
      n++;
      return n === 1
        ? Promise.reject(new TypeError("fetch failed"))
        : Promise.resolve({
            status: 200,
            text: () => Promise.resolve('{"jsonrpc":"2.0","id":1,"result":3}'),
          });
    };
    expect(await client(fetch).getSlot()).toBe(3);
  });

  it("full-jitter delays stay within [0, min(cap, base*2^attempt))", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.double({ min: 0, max: 0.9999999, noNaN: true }),
        (attempt, r) => {
          const d = backoffDelayMs(attempt, { baseDelayMs: 50, maxDelayMs: 1000, random: () => r });
          return d >= 0 && d < Math.min(1000, 50 * 2 ** attempt);
        },
      ),
    );
  });
});

describe("rpc client decoding", () => {
  it("chunks getMultipleAccounts at 100 keys and keeps order, nulls and u64 values", async () => {
    const keys = Array.from({ length: 230 }, () => Keypair.generate().publicKey);
    const f = fakeFetch((call) => {
      const asked = call.params[0] as string[];
      const value = asked.map((k, i) =>
        i % 7 === 3
          ? "null"
          : `{"data":["${Buffer.from(k).toString("base64")}","base64"],"executable":false,"lamports":18446744073709551615,"owner":"11111111111111111111111111111111","rentEpoch":18446744073709551615,"space":0}`,
      );
      return ok(`{"context":{"slot":${asked.length}},"value":[${value.join(",")}]}`);
    });
    const res = await client(f.fetch).getMultipleAccounts(keys);
    expect(f.calls.map((c) => (c.params[0] as string[]).length)).toEqual([100, 100, 30]);
    expect(f.calls[0]?.params[1]).toMatchObject({ encoding: "base64" });
    expect(res.slot).toBe(30);
    expect(res.value).toHaveLength(230);
    res.value.forEach((a, i) => {
      const chunkIndex = i % 100;
      if (chunkIndex % 7 === 3) expect(a).toBeNull();
      else {
        expect(a?.lamports).toBe(18446744073709551615n);
        expect(a?.data.toString()).toBe(keys[i]!.toBase58());
        expect(a?.owner.equals(PublicKey.default)).toBe(true);
      }
    });
  });

  it("decodes blockhash, statuses, simulation and fees", async () => {
    const f = fakeFetch((call) => {
      switch (call.method) {
        case "getLatestBlockhash":
          return ok(
            '{"context":{"slot":2},"value":{"blockhash":"EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N","lastValidBlockHeight":3090}}',
          );
        case "getSignatureStatuses":
          return ok(
            '{"context":{"slot":82},"value":[{"slot":48,"confirmations":null,"err":null,"status":{"Ok":null},"confirmationStatus":"finalized"},null]}',
          );
        case "simulateTransaction":
          return ok(
            '{"context":{"slot":5},"value":{"err":{"InstructionError":[2,{"Custom":6004}]},"logs":["a","b"],"unitsConsumed":2366}}',
          );
        case "getRecentPrioritizationFees":
          return ok('[{"slot":1,"prioritizationFee":0},{"slot":2,"prioritizationFee":1000}]');
        default:
          return { status: 404, body: "" };
      }
    });
    const c = client(f.fetch);
    expect((await c.getLatestBlockhash()).value).toEqual({
      blockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N",
      lastValidBlockHeight: 3090,
    });
    expect((await c.getSignatureStatuses(["a", "b"])).value).toEqual([
      { slot: 48, confirmations: null, err: null, confirmationStatus: "finalized" },
      null,
    ]);
    const sim = await c.simulateTransaction(new Uint8Array([9]));
    expect(sim.value).toEqual({
      err: { InstructionError: [2, { Custom: 6004 }] },
      logs: ["a", "b"],
      unitsConsumed: 2366,
    });
    expect(f.calls.find((x) => x.method === "simulateTransaction")?.params[1]).toMatchObject({
      sigVerify: false,
      replaceRecentBlockhash: false,
    });
    expect(await c.getRecentPrioritizationFees()).toEqual([
      { slot: 1, prioritizationFee: 0n },
      { slot: 2, prioritizationFee: 1000n },
    ]);
  });
});

describe("parseJsonWithBigInts", () => {
  it("keeps every u64 exact and leaves strings untouched", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxLength: 8 }),
        fc.string(),
        (values, s) => {
          const text = `{"s":${JSON.stringify(s + "12345678901234567890")},"v":[${values.join(",")}]}`;
          const parsed = parseJsonWithBigInts(text) as { s: string; v: (number | string)[] };
          expect(parsed.s).toBe(s + "12345678901234567890");
          expect(parsed.v.map((x) => BigInt(x))).toEqual(values);
        },
      ),
    );
  });
});
