/**
 * Issue 19: a key's max_sol_per_24h holds when 50 requests race across two real service processes on one
 * PostgreSQL. The reservation is written in the transaction that records each execution, serialized per key,
 * so the SOL that actually left the wallet never passes the cap — 20 rounds in a row, each with a fresh key.
 */
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

const SOL = 1_000_000_000n;
const ROUNDS = 20;
const REQUESTS = 50;
const CAP_SOL = "0.5";
const AMOUNT_SOL = "0.05";

describe.skipIf(TEST_DATABASE_URL === undefined)("spend cap across two processes on one PostgreSQL", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ processes: 2, database: "postgres" });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it(`50 concurrent transfers through a capped key never spend more than the cap (${ROUNDS} rounds)`, async () => {
    const url = (i: number) => cluster.services[i % 2]!.baseUrl;
    const { apiKey: root, wallet } = await cluster.setupKey({ sol: 100n });
    const destination = Keypair.generate().publicKey.toBase58();
    const accepted: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const created = await apiRequest<{ api_key: string; id: number }>(url(round), "POST", "/v1/keys", {
        apiKey: root,
        body: { name: `bot-${round}`, scopes: ["transfer", "read"] },
      });
      expect(created.status).toBe(201);
      const policy = await apiRequest(url(round + 1), "PUT", `/v1/keys/${created.body.id}/policy`, {
        apiKey: root,
        body: { max_sol_per_24h: CAP_SOL, destinations_allow: [destination] },
      });
      expect(policy.status).toBe(200);
      const before = await cluster.localnet.balance(wallet);
      const results = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) =>
          apiRequest<{ detail?: string; rule?: string }>(url(i), "POST", "/v1/sol/transfer/execute", {
            apiKey: created.body.api_key,
            body: { destination_wallet: destination, amount: AMOUNT_SOL, confirm: true },
          }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 403);
      expect(ok.length + refused.length, JSON.stringify(results.map((r) => [r.status, r.text]))).toBe(
        REQUESTS,
      );
      for (const r of refused) {
        expect(r.body.rule).toBe("max_sol_per_24h");
        expect(r.body.detail).toMatch(
          /^policy max_sol_per_24h: \d+\.\d{2,9} of 0\.5 SOL used, this transfer needs \d+\.\d{2,9}$/,
        );
      }
      // Each transfer spends 0.05 SOL plus its fees: at most 9 fit under 0.5 SOL, and some always do.
      expect(ok.length).toBeGreaterThan(0);
      expect(ok.length).toBeLessThanOrEqual(9);
      accepted.push(ok.length);
      const spent = before - (await cluster.localnet.balance(wallet));
      expect(spent <= SOL / 2n, `round ${round}: spent ${spent} lamports`).toBe(true);
    }
    console.log(`spend-cap: accepted per round ${accepted.join(",")} of ${REQUESTS}`);
  }, 600_000);
});
