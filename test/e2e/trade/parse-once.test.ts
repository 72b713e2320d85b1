/**
 * Issue 30: an execution body is parsed once per request; the intent travels to the policy step (the spend
 * plan) and the run. Counted on real trades (localnet), by a key with and without a policy.
 */
import { describe, expect, it } from "vitest";
import { SPEC } from "../../../src/core/errors.js";
import { EXECUTION_KIND_LIST } from "../../../src/domain/kinds.js";
import { tradeKind } from "../../../src/domain/trade/kind.js";
import type { ExecutionKindEntry } from "../../../src/domain/execution/kind.js";
import { callWith, createSubKey } from "../../helpers/security.js";
import { useE2e } from "../../helpers/use-e2e.js";

const calls = { parse: 0, plan: 0 };
const countedTrade: ExecutionKindEntry = {
  ...tradeKind,
  parse: (body, context) => {
    calls.parse += 1;
    return tradeKind.parse(body, context);
  },
  plan: (intent, plan) => {
    calls.plan += 1;
    tradeKind.plan(intent, plan);
  },
};

const e2e = useE2e({ kinds: EXECUTION_KIND_LIST.map((k) => (k === tradeKind ? countedTrade : k)) });

describe("one parse per execution request", () => {
  it("a trade's body is parsed once, by the root key and by a capped sub-key (policy step and run)", async () => {
    const { apiKey: root } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    calls.parse = 0;
    const buy = await callWith(e2e.app, root, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    expect(calls.parse).toBe(1);

    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"] });
    await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, {
      max_sol_per_24h: "5",
      max_sol_per_execution: "1",
    });
    calls.parse = 0;
    calls.plan = 0;
    const capped = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
    });
    expect(capped.status, JSON.stringify(capped.body)).toBe(200);
    expect(calls).toEqual({ parse: 1, plan: 1 });

    // A body the parser refuses: parsed once, the spec's text, nothing planned.
    calls.parse = 0;
    calls.plan = 0;
    const bad = await callWith(e2e.app, bot.apiKey, "POST", "/v1/trades/execute", { action: "hold", mint });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(SPEC.trade.badAction);
    expect(calls).toEqual({ parse: 1, plan: 0 });
  });
});
