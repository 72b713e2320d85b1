/**
 * Found by the fuzzer (issue 9.5): SOL sent to a sysvar or builtin program failed on chain
 * (ReadonlyLamportChange) after the fee and tip were paid, and answered 502. Now a 400 before anything is
 * signed: nothing sent, nothing recorded, no lamports spent.
 */
import { describe, expect, it } from "vitest";
import { SOL_RULES } from "../../../src/core/errors.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

describe("transfers to addresses that are never a wallet", () => {
  it("transfer, split and consolidate to a sysvar or builtin program are a 400 and send nothing", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const second = await e2e.fundedWallet(apiKey, 1n);
    const before = await e2e.balance(wallet);
    e2e.reset();
    const answers = [
      await e2e.post(apiKey, "/v1/sol/transfer/execute", {
        destination_wallet: "SysvarRent111111111111111111111111111111111",
        amount: "0.01",
      }),
      await e2e.post(apiKey, "/v1/sol/split/execute", {
        destinations: [{ wallet: "Vote111111111111111111111111111111111111111" }],
      }),
      await e2e.post(apiKey, "/v1/sol/consolidate/execute", {
        destination_wallet: "11111111111111111111111111111111",
        source_wallets: [second],
      }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([400, 400, 400]);
    expect(answers.map((r) => r.json<{ detail: string }>().detail)).toEqual([
      SOL_RULES.destinationReserved,
      SOL_RULES.splitDestinationReserved,
      SOL_RULES.destinationReserved,
    ]);
    expect(e2e.roundTrips()).toEqual({});
    expect(await e2e.balance(wallet)).toBe(before);
    const history = await e2e.get(apiKey, "/v1/executions");
    expect(history.json<{ executions: unknown[] }>().executions).toEqual([]);
  });
});
