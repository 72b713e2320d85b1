/**
 * An order whose mint's warm state is not usable when it is placed (the node confirms account subscriptions late,
 * as some providers do) is evaluated again once it is, without waiting for a trade on the mint: the engine's read
 * of the mint lands before the subscriptions are live (so it is not kept), and a seed tells no listener.
 */
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";
import { move, placeCrossedStopLoss, settled } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

describe("an order on a mint whose warm state comes late", () => {
  it("fires once the state is usable, with no further trade on the mint", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    e2e.localnet.admin.delayAccountSubscribeAnswers(300);
    try {
      await move(e2e, holder.apiKey, "buy", mint, "0.5");
      const o = await placeCrossedStopLoss(e2e, holder.apiKey, mint);
      const done = await settled(e2e, holder.apiKey, o.id);
      expect(done).toMatchObject({ state: "filled", triggered_by: "stop_loss" });
      expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
    } finally {
      e2e.localnet.admin.delayAccountSubscribeAnswers(0);
    }
  });
});
