/**
 * Probe (not a test; run by hand): state change → stream client latency across two stores on one PostgreSQL
 * (the writer store stands for another process: the reader hears it through NOTIFY).
 *   TEST_DATABASE_URL=postgres://… N=300 npx tsx test/events/latency-probe.ts
 */
import { loadConfig } from "../../src/config/config.js";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName } from "../helpers/pg.js";
import { openSse } from "./sse-reader.js";

const url = process.env.TEST_DATABASE_URL!;
const schema = freshSchemaName("probe");
const reader = await openStore(url, "./data", { pgSchema: schema });
const writer = await openStore(url, "./data", { pgSchema: schema });
const vault = testVault();
const app = await buildApp({
  config: loadConfig({}),
  store: reader,
  vault,
  clock: () => new Date(),
  rateLimiter: storeRateLimiter(reader),
});
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
const { api_key, wallet_public_key } = res.json<{ api_key: string; wallet_public_key: string }>();
const keyId = (await reader.findApiKeyByHash(vault.hashApiKey(api_key)))!.id;
const s = await openSse(`${base}/v1/events`, { "x-api-key": api_key });
await s.waitForComment((c) => c.includes("connected"));
const N = Number(process.env.N ?? 300);
const lat: number[] = [];
for (let i = 0; i < N; i++) {
  const id = await recordPending(writer, {
    apiKeyId: keyId,
    kind: "trade",
    wallet: wallet_public_key,
    signatures: ["s"],
    request: {},
    lastValidBlockHeight: 1,
  });
  const t0 = performance.now();
  await recordOutcome(writer, id, { status: "confirmed", confirmationStatus: "confirmed" });
  const t1 = performance.now();
  await s.waitForMessages(2 * (i + 1));
  lat.push(performance.now() - t1);
  void t0;
}
lat.sort((a, b) => a - b);
const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]!.toFixed(1);
const ids = s.messages.map((m) => Number(m.id));
console.log(
  JSON.stringify({
    N,
    events: ids.length,
    dense: ids.every((v, i) => v === i + 1),
    p50_ms: pct(50),
    p99_ms: pct(99),
    max_ms: lat.at(-1)!.toFixed(1),
  }),
);
s.close();
await app.close();
await reader.close();
await writer.close();
await dropSchema(url, schema);
process.exit(0);
