/**
 * Two service processes started at the same moment on one fresh PostgreSQL database (a rolling deploy, or
 * two replicas on a new database): both migrate-or-wait and come up, and both serve the same data.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  apiRequest,
  freshPgDatabase,
  randomMasterKey,
  setupKey,
  startLocalnetProcess,
  startService,
  type LocalnetProcess,
  type ServiceProcess,
  type TestDatabase,
} from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

describe.skipIf(TEST_DATABASE_URL === undefined)("several processes on one PostgreSQL: start-up", () => {
  it("starts two processes at once on a fresh database; both serve the same keys", async () => {
    const db: TestDatabase = await freshPgDatabase(TEST_DATABASE_URL!, "together");
    stops.push(() => db.drop());
    const localnet: LocalnetProcess = await startLocalnetProcess({ slotMs: 100 });
    stops.push(() => localnet.stop());
    const masterKey = randomMasterKey();
    const services: ServiceProcess[] = await Promise.all(
      [0, 1].map(() => startService({ localnet: localnet.info, databaseUrl: db.url, masterKey })),
    );
    for (const s of services) stops.push(() => s.stop());

    const { apiKey, wallet } = await setupKey(services[0]!.baseUrl, localnet, { sol: 0n });
    const res = await apiRequest<{ public_key: string; is_default: boolean }[]>(
      services[1]!.baseUrl,
      "GET",
      "/v1/wallets",
      { apiKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.map((w) => [w.public_key, w.is_default])).toEqual([[wallet, true]]);
  });
});
