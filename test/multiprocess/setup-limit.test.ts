/**
 * The setup limit (one call per client IP per 5 s) holds across two service processes on one
 * PostgreSQL: on the database's limiter, and on Redis' when TEST_REDIS_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";

const limiters: { name: string; redisUrl: string | undefined }[] = [
  { name: "database", redisUrl: undefined },
  ...(TEST_REDIS_URL !== undefined ? [{ name: "Redis", redisUrl: TEST_REDIS_URL }] : []),
];

describe.skipIf(TEST_DATABASE_URL === undefined).each(limiters)(
  "setup limit shared by two processes ($name limiter)",
  ({ redisUrl }) => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        database: "postgres",
        ...(redisUrl !== undefined ? { redisUrl } : {}),
      });
    });
    afterAll(async () => {
      await cluster?.close();
    });

    it("lets exactly one of simultaneous setups from one IP through, whichever process gets them", async () => {
      for (let round = 0; round < 5; round++) {
        // A documentation-range address in a header only (TRUST_PROXY=true in the harness); never contacted.
        const ip = `2001:db8:5e7::${round}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
        const calls = Array.from({ length: 6 }, (_, i) =>
          apiRequest<{ detail?: string }>(cluster.services[i % 2]!.baseUrl, "POST", "/v1/laser/setup", {
            headers: { "x-forwarded-for": ip },
          }),
        );
        const results = await Promise.all(calls);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).toEqual([200, 429, 429, 429, 429, 429]);
        for (const r of results.filter((x) => x.status === 429)) {
          expect(r.headers.get("retry-after")).toBe("5");
          expect(typeof r.body.detail).toBe("string");
        }
      }
    });
  },
);
