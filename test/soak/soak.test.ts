/**
 * Short form of the soak suite (`npm run soak` runs the full one): a few hundred trades through a service
 * process against a localnet process — load, 30 % read faults, sends that never land, kill -9 and
 * restart; issue 20's events and webhooks (200 executions, seconds of downtime). Every figure with a goal
 * must meet it. PostgreSQL when TEST_DATABASE_URL is set, else SQLite.
 */
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";
import { toMarkdown, unmet } from "./figures.js";
import { runSoak, SHORT, type ScenarioId } from "./suite.js";

const run = (only: ScenarioId[]) =>
  runSoak({
    sizes: SHORT,
    only,
    database: TEST_DATABASE_URL !== undefined ? "postgres" : "sqlite",
    // Inside a busy `npm test` the localnet may take seconds to answer; what is checked here is
    // correctness (no 5xx, nothing unrecorded), not the localnet's speed, so upstream calls get time.
    serviceEnv: { RPC_TIMEOUT_MS: "20000" },
    ...(TEST_REDIS_URL !== undefined ? { redisUrl: TEST_REDIS_URL } : {}),
  });

describe("soak (short form)", () => {
  it.each([
    { name: "load and 30 % read faults", only: ["a", "b"] as ScenarioId[] },
    { name: "sends that never land", only: ["c"] as ScenarioId[] },
    { name: "kill -9 with trades in flight", only: ["d"] as ScenarioId[] },
    // Issue 20: streams on both processes, failing / down webhook receivers, kill -9 with deliveries pending.
    { name: "execution events and webhooks", only: ["e", "f", "g"] as ScenarioId[] },
  ])(
    "$name: every goal met",
    async ({ only }) => {
      const reports = await run(only);
      expect(reports).toHaveLength(only.length);
      // The whole table in the failure message: a missed goal shows with the figures around it.
      expect(unmet(reports), toMarkdown(reports)).toEqual([]);
    },
    180_000,
  );
});
