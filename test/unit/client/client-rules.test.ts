/** @lasertrade/client's pure parts: amount text, bigint parsing of lamport fields, errors, retry rules. */
import { describe, expect, it } from "vitest";
import {
  backoffMs,
  DEFAULT_RETRY,
  lamportsToSol,
  LaserTrade,
  LaserTradeError,
  parseBody,
  solToLamports,
} from "@lasertrade/client";

describe("amounts", () => {
  it("writes lamports as exact SOL text and back", () => {
    expect(lamportsToSol(50_000_000n)).toBe("0.05");
    expect(lamportsToSol(1n)).toBe("0.000000001");
    expect(lamportsToSol(18_446_744_073_709_551_615n)).toBe("18446744073.709551615");
    expect(lamportsToSol(2_000_000_000n)).toBe("2");
    expect(solToLamports("0.05")).toBe(50_000_000n);
    expect(solToLamports(".5")).toBe(500_000_000n);
    expect(() => solToLamports("0.0000000001")).toThrow(RangeError);
    expect(() => solToLamports("abc")).toThrow(RangeError);
  });
});

describe("parseBody", () => {
  it("keeps u64 lamport fields exact as bigint and other numbers as numbers", () => {
    const body = parseBody(
      '{"amount_units":18446744073709551615,"fee_reserve_lamports":5000,"decimals":9,' +
        '"transfers":[{"lamports":12,"sol":"0.000000012"}],"rpc_slots":[7],"ratio":1.5}',
    );
    expect(body).toEqual({
      amount_units: 18_446_744_073_709_551_615n,
      fee_reserve_lamports: 5000n,
      decimals: 9,
      transfers: [{ lamports: 12n, sol: "0.000000012" }],
      rpc_slots: [7],
      ratio: 1.5,
    });
  });
});

describe("LaserTradeError", () => {
  it("carries status, detail, the signature(s) and the body", () => {
    const one = LaserTradeError.fromResponse(502, { detail: "relay down", signature: "sig1" });
    expect([one.status, one.detail, one.signature, one.signatures]).toEqual([
      502,
      "relay down",
      "sig1",
      ["sig1"],
    ]);
    const legs = LaserTradeError.fromResponse(502, { detail: "bundle failed", signatures: ["a", "b"] });
    expect([legs.signature, legs.signatures]).toEqual(["a", ["a", "b"]]);
    const text = LaserTradeError.fromResponse(503, "Service Unavailable");
    expect([text.detail, text.signature, text.message]).toEqual([
      "Service Unavailable",
      undefined,
      "503: Service Unavailable",
    ]);
  });
});

describe("retries", () => {
  it("backs off exponentially with jitter, honouring Retry-After up to the cap", () => {
    expect(backoffMs(0, DEFAULT_RETRY, null, () => 1)).toBe(250);
    expect(backoffMs(2, DEFAULT_RETRY, null, () => 0)).toBe(500);
    expect(backoffMs(10, DEFAULT_RETRY, null, () => 1)).toBe(5000);
    expect(backoffMs(0, DEFAULT_RETRY, "2", () => 1)).toBe(2000);
    expect(backoffMs(0, DEFAULT_RETRY, "60", () => 1)).toBe(5000);
  });

  /** A client whose fetch answers from a script and records what it was sent. */
  function scripted(answers: (Response | Error)[]) {
    const seen: { method: string; url: string; key: string | null; body: string }[] = [];
    const client = new LaserTrade({
      baseUrl: "http://service.test",
      apiKey: "k",
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1 },
      fetch: async (req) => {
        seen.push({
          method: req.method,
          url: req.url,
          key: req.headers.get("idempotency-key"),
          body: await req.text(),
        });
        const next = answers.shift();
        if (next === undefined) throw new Error("no more answers");
        if (next instanceof Error) throw next;
        return next;
      },
    });
    return { client, seen };
  }
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const networkError = () =>
    new TypeError("fetch failed", { cause: { code: "ECONNRESET", message: "socket hang up" } });

  it("retries 429, 503 and network errors of an execution with the same Idempotency-Key and body", async () => {
    const { client, seen } = scripted([
      json(503, { detail: "chain unavailable" }),
      networkError(),
      json(429, { detail: "slow down" }),
      json(200, { destination_wallet: "d", amount_units: 1000, fee_reserve_lamports: 5000 }),
    ]);
    const out = await client.sol.transfer({ destination_wallet: "d", amount: 1000n });
    expect(out.amount_units).toBe(1000n);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(seen[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(seen.map((s) => s.body))).toEqual(
      new Set(['{"destination_wallet":"d","amount":"0.000001"}']),
    );
  });

  it("does not retry other errors, nor a network error of a POST without a key", async () => {
    const four = scripted([json(400, { detail: "no" }), json(200, {})]);
    await expect(four.client.trades.sell({ mint: "m", amount: 5n })).rejects.toMatchObject({
      status: 400,
      detail: "no",
    });
    expect(four.seen).toHaveLength(1);
    const create = scripted([networkError(), json(200, {})]);
    await expect(create.client.wallets.create()).rejects.toMatchObject({
      status: 0,
      detail: "network error: socket hang up",
    });
    expect(create.seen).toHaveLength(1);
    const list = scripted([networkError(), json(200, [])]);
    expect(await list.client.wallets.list()).toEqual([]);
    const fresh = scripted([json(200, { signature: "a" }), json(200, { signature: "b" })]);
    await fresh.client.trades.buy({ mint: "m", amount: "0.1" });
    await fresh.client.trades.buy({ mint: "m", amount: "0.1" }, { idempotencyKey: "mine" });
    expect(fresh.seen[0]?.key).not.toBe(fresh.seen[1]?.key);
    expect(fresh.seen[1]?.key).toBe("mine");
  });

  it("gives up after the configured retries with the last answer", async () => {
    const { client, seen } = scripted([503, 503, 503, 503].map((s) => json(s, { detail: "down" })));
    await expect(client.cashback.check()).rejects.toMatchObject({ status: 503, detail: "down" });
    expect(seen).toHaveLength(4);
  });
});
