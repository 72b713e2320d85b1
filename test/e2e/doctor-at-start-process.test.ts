/**
 * DOCTOR_AT_START on a real service process (test/harness): against a localnet whose launch Global account
 * has an unexpected layout, `refuse` exits before listening with the failed check on stderr, and `warn`
 * starts and serves while logging it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freshSqliteDatabase,
  randomMasterKey,
  startLocalnetProcess,
  startService,
  type LocalnetProcess,
  type TestDatabase,
} from "../harness/index.js";

// The localnet refuses POSTs that are not application/json (issue 23: no cross-site admin calls).
const JSON_HEADERS = { "content-type": "application/json" };

let localnet: LocalnetProcess;
let db: TestDatabase;

beforeAll(async () => {
  localnet = await startLocalnetProcess({ slotMs: 100 });
  db = freshSqliteDatabase();
  const res = await fetch(`${localnet.info.adminUrl}/launch-global-layout`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ layout: "altered" }),
  });
  expect(res.status).toBe(200);
}, 90_000);

afterAll(async () => {
  await localnet?.stop();
  await db?.drop();
});

describe("DOCTOR_AT_START on a service process", () => {
  it("refuse: the process exits before listening, naming the failed check", async () => {
    const start = startService({
      localnet: localnet.info,
      databaseUrl: db.url,
      masterKey: randomMasterKey(),
      env: { DOCTOR_AT_START: "refuse" },
    });
    const error = await start.then(
      () => new Error("expected the start to be refused"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toContain("service exited before it listened");
    expect(error.message).toContain("pre-flight checks failed (DOCTOR_AT_START=refuse)");
    expect(error.message).toContain("launch-global");
  }, 120_000);

  it("warn: the process starts and serves", async () => {
    const service = await startService({
      localnet: localnet.info,
      databaseUrl: db.url,
      masterKey: randomMasterKey(),
      env: { DOCTOR_AT_START: "warn" },
    });
    try {
      expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await service.stop();
    }
  }, 120_000);
});
