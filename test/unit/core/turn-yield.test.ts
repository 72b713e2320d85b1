/** TurnYield: nothing to wait for while nobody is busy; a wait of one turn (after queued microtasks) otherwise. */
import { describe, expect, it } from "vitest";
import { TurnYield } from "../../../src/core/turn-yield.js";

describe("TurnYield", () => {
  it("passes at once while no predicate is busy, and waits one turn while one is", async () => {
    const y = new TurnYield();
    expect(y.pass()).toBeUndefined();
    let busy = false;
    const remove = y.add(() => busy);
    expect(y.pass()).toBeUndefined();
    busy = true;
    const order: string[] = [];
    const turn = y.pass();
    expect(turn).toBeInstanceOf(Promise);
    void turn!.then(() => order.push("turn"));
    for (let i = 0; i < 20; i++) await Promise.resolve();
    order.push("microtasks");
    await turn;
    expect(order).toEqual(["microtasks", "turn"]);
    remove();
    expect(y.pass()).toBeUndefined();
  });
});
