/**
 * Short form of the soak's orders scenario (h): two service processes on one PostgreSQL, 40 take-profits crossed
 * by one buy and 4 copy orders following a leader whose 4 buys straddle the kill, one process killed with SIGKILL
 * mid-way: every order settled, each sent exactly once at the relay, one settlement event each; every followed
 * trade recorded once per copy order, copied at most once, no claim left unsettled. `npm run soak -- --only h`
 * runs 1,000 orders and 20 × 20 copies.
 */
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../helpers/pg.js";
import { toMarkdown, unmet } from "../soak/figures.js";
import { runSoak, SHORT } from "../soak/suite.js";

describe.skipIf(TEST_DATABASE_URL === undefined)("orders exactly once across a kill -9 (short soak)", () => {
  it("every order fired exactly once, none lost, no event twice", async () => {
    const reports = await runSoak({
      sizes: SHORT,
      only: ["h"],
      database: "postgres",
      serviceEnv: { RPC_TIMEOUT_MS: "20000" },
    });
    expect(reports).toHaveLength(1);
    expect(unmet(reports), toMarkdown(reports)).toEqual([]);
    console.log(toMarkdown(reports));
  }, 150_000);
});
