/**
 * Send-only sniping: after POST /v1/watch, the first buy of the mint by any of the key's wallets is built from
 * the warm state (the wallet's lamports from its own subscription, its token account created idempotently),
 * with no account read: the only upstream call is the send. The buy lands and the wallet holds the tokens.
 */
import { describe, expect, it } from "vitest";
import { trade } from "../../helpers/e2e.js";
import { until, warmTrade } from "../../helpers/warm.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e({ warm: true });
const FAST = { simulate: false, confirm: false } as const;

async function watch(apiKey: string, mint: string): Promise<void> {
  const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
  expect(res.statusCode, res.body).toBe(200);
}

async function landed(wallet: string, mint: string): Promise<bigint> {
  let held = 0n;
  await until(async () => {
    held = await e2e.tokenBalance(wallet, mint);
    return held > 0n;
  }, "the buy to land");
  return held;
}

describe("first buy of a watched mint", () => {
  it("is warm: no read, one send; it lands and the wallet's next trade of the mint is warm too", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    await watch(apiKey, mint);
    e2e.reset();
    const first = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", ...FAST });
    // Counted at the answer: the wallet's token accounts are subscribed (and seeded) after it, off the path.
    const counted = e2e.roundTrips();
    expect(first.state_source).toBe("cache");
    expect(counted).toEqual({ "relay.sendTransaction": 1 });
    expect(first.venue).toBe("bonding_curve");
    expect(await landed(wallet, mint)).toBeGreaterThan(0n);
    // The token account now exists: the next buy is a full cache hit (its idempotent creation is a no-op).
    const next = await warmTrade(e2e, apiKey, mint);
    expect(next.state_source).toBe("cache");
    await until(async () => (await e2e.tokenBalance(wallet, mint)) > BigInt(first.expected_output), "2nd");
  });

  it("holds for a wallet that traded other mints, and for every wallet of the key", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const other = await e2e.fundedWallet(apiKey);
    const { mint: before } = e2e.localnet.admin.createToken();
    await trade(e2e, apiKey, { action: "buy", mint: before, amount: "0.01" });
    const { mint } = e2e.localnet.admin.createToken();
    await watch(apiKey, mint);
    for (const w of [wallet, other]) {
      e2e.reset();
      const res = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", wallet: w, ...FAST });
      const counted = e2e.roundTrips();
      expect(res.state_source).toBe("cache");
      expect(res.wallet).toBe(w);
      expect(counted["rpc.getMultipleAccounts"]).toBeUndefined();
      expect(await landed(w, mint)).toBeGreaterThan(0n);
    }
  });

  it("a sell still reads (it needs the token balance); an unwatched mint's first buy reads", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const cold = await trade(e2e, apiKey, { action: "buy", mint: mint, amount: "0.01", ...FAST });
    expect(cold.state_source).toBe("read");
    const { mint: watched } = e2e.localnet.admin.createToken();
    await watch(apiKey, watched);
    const res = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "sell",
      mint: watched,
      amount: "100%",
      ...FAST,
    });
    // Nothing to sell: refused from a read of the wallet's (absent) token account, not from a guess.
    expect(res.statusCode).toBe(400);
  });
});
