/**
 * Issue 33: a position.updated event reaches a webhook subscribed to it, signed like every delivery, with the
 * position after the fill; a webhook of execution events only does not get it (SQLite and PostgreSQL).
 */
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { loadConfig } from "../../src/config/config.js";
import { recordPending } from "../../src/domain/execution/records.js";
import { fanOutOnce, sendDueOnce } from "../../src/domain/webhooks/worker.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { startReceiver } from "./webhook-receiver.js";

const vault = testVault();
const schema = freshSchemaName("poshooks");
const engines: [string, () => Promise<Store>][] = [
  ["sqlite", () => openStore("sqlite::memory:", "./data")],
  ...(TEST_DATABASE_URL !== undefined
    ? [
        ["postgres", () => openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema })] as [
          string,
          () => Promise<Store>,
        ],
      ]
    : []),
];

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

describe.each(engines)("position.updated webhooks on %s", (_name, open) => {
  it("delivers the position after the fill to the endpoints that asked for it", async () => {
    const store = await open();
    const clock = () => new Date();
    const app = await buildApp({
      store,
      vault,
      clock,
      rateLimiter: storeRateLimiter(store),
      config: loadConfig({}),
    });
    const positions = await startReceiver();
    const executions = await startReceiver();
    try {
      const setup = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
      const { api_key: apiKey, wallet_public_key: wallet } = setup.json<{
        api_key: string;
        wallet_public_key: string;
      }>();
      const hook = async (url: string, types: string[]) => {
        const res = await app.inject({
          method: "POST",
          url: "/v1/webhooks",
          headers: { "x-api-key": apiKey },
          payload: { url, types },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ secret: string }>();
      };
      const { secret } = await hook(positions.url, ["position.updated"]);
      await hook(executions.url, ["execution.confirmed"]);
      const apiKeyId = (await store.findApiKeyByHash(vault.hashApiKey(apiKey)))!.id;
      const mint = Keypair.generate().publicKey.toBase58();
      const id = await recordPending(store, {
        apiKeyId,
        kind: "trade",
        wallet,
        signatures: ["s"],
        request: { action: "buy", mint },
        lastValidBlockHeight: 1,
      });
      const fill = {
        sol_change_lamports: "-1005000",
        fee_lamports: "5000",
        tip_lamports: "0",
        rent_lamports: "0",
        trade_sol_lamports: "1000000",
        token_change: "7000",
        token_balance_after: "7000",
        token_decimals: 6,
      };
      await store.updateExecution(id, { status: "confirmed", response: { mint, fill } });
      const worker = { store, vault, clock, owner: "w", allowPrivate: true, delays: [5_000] };
      await fanOutOnce(worker);
      await sendDueOnce(worker);
      expect(positions.received).toHaveLength(1);
      const body = new Webhook(secret).verify(
        positions.received[0]!.body,
        positions.received[0]!.headers as Record<string, string>,
      ) as {
        type: string;
        data: { execution_id: string; status: string; position: Record<string, unknown> };
      };
      expect(body.type).toBe("position.updated");
      expect(body.data.execution_id).toBe(id);
      expect(body.data.status).toBe("open");
      expect(body.data.position).toMatchObject({
        wallet,
        mint,
        tokens_held: "7000",
        cost_basis_lamports: "1005000",
      });
      expect(executions.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual([
        "execution.confirmed",
      ]);
    } finally {
      await positions.close();
      await executions.close();
      await app.close();
      await store.close();
    }
  });
});
