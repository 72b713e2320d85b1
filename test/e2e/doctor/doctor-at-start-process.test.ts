/**
 * DOCTOR_AT_START on a real service process (test/harness): against a localnet whose launch Global account
 * has an unexpected layout, `refuse` exits before listening with the failed check on stderr, and `warn`
 * starts and serves while logging it (and, off the sandbox, prints the open defaults under its banner).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freshSqliteDatabase,
  randomMasterKey,
  startLocalnetProcess,
  startService,
  type LocalnetProcess,
  type TestDatabase,
} from "../../harness/index.js";

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
      // Issue 29: off the sandbox the banner is followed by the open defaults (the harness sets none of them).
      // Written just after listen: wait for it rather than assume it came before the health answer.
      const banner = "!! WARNING: CLUSTER=custom with 3 open defaults:";
      for (let i = 0; i < 100 && !service.child.outputTail().includes(banner); i++)
        await new Promise((r) => setTimeout(r, 100));
      const out = service.child.outputTail();
      expect(out).toContain(banner);
      expect(out).toContain("!!   WARN setup-mode: SETUP_MODE=open");
      expect(out).toContain("!!   WARN metrics-access:");
      expect(out).toContain("!!   WARN allowed-hosts:");
    } finally {
      await service.stop();
    }
  }, 120_000);
});
