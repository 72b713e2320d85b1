/**
 * Issue 22, `lasertrade quote` as a user runs it (the built bin in a child process, through the typed client's
 * `trades.quote`) against the listening app: the same answer as GET /v1/quote on the same state, for a SOL buy,
 * a token buy and a sell; a bad side and a service refusal exit 1 with their text.
 */
import { describe, expect, it } from "vitest";
import { TRADE_RULES } from "../../../src/core/errors.js";
import { useCliE2e } from "../../helpers/cli-e2e.js";

const t = useCliE2e("lasertrade-cli-quote-");

describe("lasertrade quote", () => {
  it("prints the service's quote for buys and sells; refusals exit 1 with their text", async () => {
    const setup = await t.run(["--json", "--url", t.baseUrl, "setup"]);
    expect(setup.code, setup.stderr).toBe(0);
    const { api_key: apiKey } = JSON.parse(setup.stdout) as { api_key: string };
    // No SOL in the wallet: a quote needs none.
    const { mint } = t.e2e.localnet.admin.createToken();
    const http = async (query: string) => {
      const res = await fetch(`${t.baseUrl}/v1/quote?mint=${mint}&${query}`, {
        headers: { "x-api-key": apiKey },
      });
      expect(res.status).toBe(200);
      // state_slot moves with the localnet's clock between the two calls; the rest is the same state.
      const { state_slot: _slot, ...rest } = (await res.json()) as Record<string, unknown>;
      return rest;
    };
    const cli = async (args: string[]) => {
      const out = await t.run(["--json", "quote", mint, ...args]);
      expect(out.code, out.stderr).toBe(0);
      const { state_slot: _slot, ...rest } = JSON.parse(out.stdout) as Record<string, unknown>;
      return rest;
    };

    // Nothing is written: the commands run side by side (each is a node start).
    const [buy, tokens, sell, side, percent] = await Promise.all([
      cli(["buy", "0.05"]),
      cli(["buy", "1000000", "--tokens", "--slippage", "5"]),
      cli(["sell", "1000000"]),
      t.run(["quote", mint, "hold", "1"]),
      t.run(["quote", mint, "sell", "50%"]),
    ]);
    expect(buy).toEqual(await http("side=buy&amount=0.05"));
    expect(buy).toMatchObject({ venue: "bonding_curve", side: "buy", amount: "0.05", slippage_bps: 200 });
    expect(BigInt(buy.tokens_out as string)).toBeGreaterThan(0n);
    expect(tokens).toEqual(await http("side=buy&amount=1000000&denominated_in_sol=false&slippage=5"));
    expect(tokens).toMatchObject({ tokens_out: "1000000", slippage_bps: 500 });
    expect(sell).toEqual(await http("side=sell&amount=1000000"));
    expect(sell.tokens_in).toBe("1000000");
    expect(side.code).toBe(1);
    expect(side.stderr).toContain("side must be buy or sell");
    expect(percent.code).toBe(1);
    expect(percent.stderr).toContain(TRADE_RULES.quotePercent);
  });
});
