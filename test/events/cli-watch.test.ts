/** `lasertrade watch` (the built bin in a child process) prints executions' events as they happen. */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import type { Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { listeningApp, type ListeningApp } from "../helpers/listening-app.js";

const CLI = fileURLToPath(new URL("../../packages/cli/bin/lasertrade.js", import.meta.url));

describe("lasertrade watch", () => {
  let app: FastifyInstance;
  let store: Store;
  let base: string;
  let running: ListeningApp | undefined;
  const vault = testVault();
  beforeAll(async () => {
    running = await listeningApp(vault);
    ({ app, store, base } = running);
  });
  afterAll(async () => running?.close());

  it("prints each event as a line (and as JSON with --json), from a cursor", async () => {
    const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
    const { api_key, wallet_public_key } = res.json<{ api_key: string; wallet_public_key: string }>();
    const keyId = (await store.findApiKeyByHash(vault.hashApiKey(api_key)))!.id;
    const id = await recordPending(store, {
      apiKeyId: keyId,
      kind: "trade",
      wallet: wallet_public_key,
      signatures: ["sig1"],
      request: {},
      lastValidBlockHeight: 1,
    });
    await recordOutcome(store, id, { status: "confirmed", confirmationStatus: "confirmed" });
    const env = {
      ...process.env,
      LASERTRADE_URL: base,
      LASERTRADE_API_KEY: api_key,
      LASERTRADE_CONFIG: join(mkdtempSync(join(tmpdir(), "watch-")), "config.json"),
    };
    const run = (args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [CLI, ...args], { env, timeout: 30_000 }, (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
        ),
      );
    const table = await run(["watch", "--after", "0", "--count", "2"]);
    const lines = table.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("#1");
    expect(lines[0]).toContain("pending");
    expect(lines[1]).toContain("confirmed");
    expect(lines[1]).toContain(id);
    const json = await run(["--json", "watch", "--after", "1", "--count", "1"]);
    expect(JSON.parse(json.trim())).toMatchObject({ id: 2, type: "execution.confirmed", execution_id: id });
  });
});
