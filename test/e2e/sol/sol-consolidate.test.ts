/** POST /v1/sol/consolidate/execute end to end: exact lamports per source and at the destination, and refusals. */
import { describe, expect, it } from "vitest";
import { FOUNDATION, SPEC } from "../../../src/core/errors.js";
import { SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM } from "../../../src/domain/sol/reserve.js";
import { expectedReserve, external, feeOf } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

interface ConsolidateBody {
  destination_wallet: string;
  fee_reserve_lamports: number;
  fee_reserve_breakdown: Record<
    "fee_reserve_lamports" | "relay_tip_lamports" | "signature_fee_lamports" | "priority_fee_lamports",
    string
  > &
    Record<"priority_fee_reserve_lamports" | "total_lamports", string>;
  total_transfer_lamports: number;
  total_transfer_sol: string;
  transactions: {
    source_wallet: string;
    source_balance_lamports: number;
    transfer_lamports: number;
    transfer_sol: string;
    signature: string;
    confirmed: boolean;
    confirmation_status: string | null;
  }[];
}

describe("POST /v1/sol/consolidate/execute", () => {
  it("sweeps every other wallet of the key into the destination, one transaction each", async () => {
    const { apiKey, wallet: destination } = await e2e.setup({ sol: 1n });
    const sources = [
      await e2e.fundedWallet(apiKey, 2n),
      await e2e.fundedWallet(apiKey, 3n),
      await e2e.fundedWallet(apiKey, 4n),
    ];
    const destinationBefore = await e2e.balance(destination);

    const res = await e2e.post(apiKey, "/v1/sol/consolidate/execute", { destination_wallet: destination });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ConsolidateBody>();
    const reserve = expectedReserve(e2e, 5_000n);
    expect(body.destination_wallet).toBe(destination);
    expect(BigInt(body.fee_reserve_lamports)).toBe(reserve);
    // Issue 30: what the reserve is made of, beside the spec's field, adding up to it.
    const parts = body.fee_reserve_breakdown;
    expect(parts).toMatchObject({
      requested_lamports: "5000",
      rent_exempt_minimum_lamports: String(SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM),
      fee_reserve_lamports: String(SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM),
      relay_tip_lamports: String(e2e.localnet.relayTipLamports),
      signature_fee_lamports: "5000",
      total_lamports: String(reserve),
    });
    expect(BigInt(parts.priority_fee_reserve_lamports)).toBe(
      BigInt(parts.signature_fee_lamports) + BigInt(parts.priority_fee_lamports),
    );
    expect(
      BigInt(parts.fee_reserve_lamports) +
        BigInt(parts.relay_tip_lamports) +
        BigInt(parts.priority_fee_reserve_lamports),
    ).toBe(reserve);
    expect(body.transactions.map((t) => t.source_wallet)).toEqual(sources);

    let total = 0n;
    for (const [i, t] of body.transactions.entries()) {
      const balance = BigInt(i + 2) * 1_000_000_000n;
      expect(BigInt(t.source_balance_lamports)).toBe(balance);
      expect(BigInt(t.transfer_lamports)).toBe(balance - reserve);
      expect(t.confirmed).toBe(true);
      total += balance - reserve;
      // Each source keeps the effective reserve minus what it paid: network fee and relay tip.
      const fee = await feeOf(e2e, t.signature);
      expect(fee).toBeLessThanOrEqual(
        reserve - SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM - e2e.localnet.relayTipLamports,
      );
      expect(await e2e.balance(t.source_wallet)).toBe(reserve - fee - e2e.localnet.relayTipLamports);
    }
    expect(BigInt(body.total_transfer_lamports)).toBe(total);
    expect(await e2e.balance(destination)).toBe(destinationBefore + total);
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBe(3);
  });

  it("sends from the named sources to an external destination with the requested reserve", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const a = await e2e.fundedWallet(apiKey, 1n);
    const b = await e2e.fundedWallet(apiKey, 1n);
    await e2e.fundedWallet(apiKey, 1n); // not named: untouched
    const destination = external();
    const res = await e2e.post(apiKey, "/v1/sol/consolidate/execute", {
      destination_wallet: destination,
      source_wallets: [b, a],
      fee_reserve_lamports: 2_000_000,
      confirm: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ConsolidateBody>();
    const reserve = expectedReserve(e2e, 2_000_000n);
    expect(BigInt(body.fee_reserve_lamports)).toBe(reserve);
    expect(body.transactions.map((t) => [t.source_wallet, t.confirmed, t.confirmation_status])).toEqual([
      [b, false, null],
      [a, false, null],
    ]);
    expect(BigInt(body.total_transfer_lamports)).toBe(2n * (1_000_000_000n - reserve));
    expect(body.total_transfer_sol).toBe(
      `${(2n * (1_000_000_000n - reserve)) / 1_000_000_000n}.${((2n * (1_000_000_000n - reserve)) % 1_000_000_000n).toString().padStart(9, "0")}`,
    );
  });

  it("refuses a source that cannot cover the reserve before sending anything", async () => {
    const { apiKey, wallet: destination } = await e2e.setup({ sol: 1n });
    const rich = await e2e.fundedWallet(apiKey, 2n);
    const poor = await e2e.fundedWallet(apiKey, 0n);
    e2e.localnet.admin.fund(poor, 1_000_000n);
    e2e.reset();

    const res = await e2e.post(apiKey, "/v1/sol/consolidate/execute", { destination_wallet: destination });
    expect(res.statusCode).toBe(400);
    const refusal = res.json<{
      detail: string;
      reason: string;
      fee_reserve_breakdown: Record<string, string>;
    }>();
    const detail = refusal.detail;
    expect(detail.startsWith(SPEC.consolidate.lowBalancePrefix)).toBe(true);
    // Issue 30: the refusal says what the reserve is made of, beside the spec's detail.
    expect(refusal.reason).toMatch(
      /^effective reserve \d+ lamports = fee reserve 890880 \(fee_reserve_lamports 5000 raised to the rent-exempt minimum of a system account\) \+ relay tip \d+ \+ priority-fee reserve \d+ \(signature fee 5000 \+ priority fee \d+\)$/,
    );
    expect(refusal.fee_reserve_breakdown.total_lamports).toBe(String(expectedReserve(e2e, 5_000n)));
    expect(detail).toContain(poor);
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
    expect(await e2e.balance(rich)).toBe(2_000_000_000n);
    expect(await e2e.balance(poor)).toBe(1_000_000n);
  });

  it("stops at the first failed source: a relay refusal is a 502 and later sources are not sent", async () => {
    const { apiKey, wallet: destination } = await e2e.setup({ sol: 1n });
    const first = await e2e.fundedWallet(apiKey, 1n);
    const second = await e2e.fundedWallet(apiKey, 1n);
    e2e.reset();
    e2e.localnet.admin.setFaults({ errorCount: 1, errorKind: "http500", endpoints: ["relay"] });
    const res = await e2e.post(apiKey, "/v1/sol/consolidate/execute", { destination_wallet: destination });
    expect(res.statusCode).toBe(502);
    expect(typeof res.json<{ signature?: unknown }>().signature).toBe("string");
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBe(1);
    expect(await e2e.balance(first)).toBe(1_000_000_000n);
    expect(await e2e.balance(second)).toBe(1_000_000_000n);
    // The refused transaction is in the history as failed; the second source has no record at all.
    const history = await e2e.get(apiKey, "/v1/executions?kind=consolidate");
    expect(history.statusCode, history.body).toBe(200);
    const list = history.json<{ executions: { wallet: string; status: string }[] }>().executions;
    expect(list.map((r) => [r.wallet, r.status])).toEqual([[first, "failed"]]);
  });

  it("answers the spec's errors", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 0n });
    const other = await e2e.fundedWallet(apiKey, 0n);
    const foreign = (await e2e.setup({ sol: 0n })).wallet;
    const cases: [unknown, number, string][] = [
      [{ destination_wallet: "nope" }, 400, SPEC.consolidate.invalidDestination],
      [{}, 400, SPEC.consolidate.invalidDestination],
      [{ destination_wallet: external(), source_wallets: [] }, 400, SPEC.consolidate.sourcesCount],
      [
        { destination_wallet: external(), source_wallets: Array.from({ length: 51 }, external) },
        400,
        SPEC.consolidate.sourcesCount,
      ],
      [
        { destination_wallet: external(), source_wallets: [wallet, wallet] },
        400,
        SPEC.consolidate.sourcesUnique,
      ],
      [
        { destination_wallet: wallet, source_wallets: [other, wallet] },
        400,
        SPEC.consolidate.destinationIsSource,
      ],
      [{ destination_wallet: wallet, source_wallets: [foreign] }, 404, FOUNDATION.walletNotFound],
    ];
    for (const [body, status, detail] of cases) {
      const res = await e2e.post(apiKey, "/v1/sol/consolidate/execute", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toEqual({ code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/), detail });
    }
    const lonely = await e2e.setup({ sol: 0n });
    const none = await e2e.post(lonely.apiKey, "/v1/sol/consolidate/execute", {
      destination_wallet: lonely.wallet,
    });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: SPEC.consolidate.noSources, code: "consolidate.no_sources" });
  });
});
