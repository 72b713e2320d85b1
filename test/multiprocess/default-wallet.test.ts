/**
 * Two real service processes on one PostgreSQL (+ Redis when TEST_REDIS_URL is set): set-default, delink,
 * create and import with set_default, fired at both processes at once, never leave a key with two default
 * wallets or with wallets but no default, and never answer 5xx.
 */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type ApiResponse, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";

interface WalletRecord {
  public_key: string;
  is_default: boolean;
}

let cluster: Cluster;
const url = (i: number) => cluster.services[i % cluster.services.length]!.baseUrl;

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "several processes on one PostgreSQL: default wallet",
  () => {
    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        database: "postgres",
        ...(TEST_REDIS_URL !== undefined ? { redisUrl: TEST_REDIS_URL } : {}),
      });
    });
    afterAll(async () => {
      await cluster?.close();
    });

    const wallets = async (apiKey: string, via: number): Promise<WalletRecord[]> => {
      const res = await apiRequest<WalletRecord[]>(url(via), "GET", "/v1/wallets", { apiKey });
      expect(res.status).toBe(200);
      return res.body;
    };
    /** A key's wallets satisfy the invariant: one default when it has any, none when it has none. */
    const checkOneDefault = (list: WalletRecord[]) => {
      expect(list.filter((w) => w.is_default).length).toBe(list.length > 0 ? 1 : 0);
    };

    it("keeps exactly one default wallet under concurrent set-default, delink, create and import from both processes", async () => {
      const { apiKey } = await cluster.setupKey({ sol: 0n });
      const created: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await apiRequest<WalletRecord>(url(i), "POST", "/v1/wallets", { apiKey, body: {} });
        expect(res.status).toBe(200);
        created.push(res.body.public_key);
      }
      const statuses: number[] = [];
      const snapshots: WalletRecord[][] = [];
      for (let wave = 0; wave < 6; wave++) {
        const known = (await wallets(apiKey, wave)).map((w) => w.public_key);
        const imported = Keypair.generate();
        const ops: Promise<ApiResponse>[] = [];
        for (let i = 0; i < 24; i++) {
          const target = known[(i * 7 + wave) % known.length]!;
          const via = i + wave;
          switch (i % 6) {
            case 0:
            case 1:
              ops.push(apiRequest(url(via), "PUT", `/v1/wallets/${target}/default`, { apiKey }));
              break;
            case 2:
              ops.push(apiRequest(url(via), "DELETE", `/v1/wallets/${target}`, { apiKey }));
              break;
            case 3:
              ops.push(apiRequest(url(via), "POST", "/v1/wallets", { apiKey, body: { set_default: true } }));
              break;
            case 4:
              // The same secret imported through both processes at once: one links it, the other gets 409.
              ops.push(
                apiRequest(url(via), "POST", "/v1/wallets/import", {
                  apiKey,
                  body: { private_key_base58: bs58.encode(imported.secretKey), set_default: true },
                }),
              );
              break;
            default:
              ops.push(
                apiRequest<WalletRecord[]>(url(via), "GET", "/v1/wallets", { apiKey }).then((r) => {
                  snapshots.push(r.body);
                  return r;
                }),
              );
          }
        }
        for (const r of await Promise.all(ops)) statuses.push(r.status);
        checkOneDefault(await wallets(apiKey, 0));
        checkOneDefault(await wallets(apiKey, 1));
        // Keep enough wallets for the next wave's delinks.
        for (let i = 0; i < 3; i++) await apiRequest(url(i), "POST", "/v1/wallets", { apiKey, body: {} });
      }
      for (const s of snapshots) checkOneDefault(s);
      // 200, 404 for a wallet another request had just delinked, 409 for the losing import; never 5xx.
      expect(statuses.filter((s) => ![200, 404, 409].includes(s))).toEqual([]);
      expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
    });

    it("moves the default to the oldest remaining wallet when both processes delink defaults at once", async () => {
      const { apiKey, wallet: first } = await cluster.setupKey({ sol: 0n });
      const others: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await apiRequest<WalletRecord>(url(i), "POST", "/v1/wallets", { apiKey, body: {} });
        others.push(res.body.public_key);
      }
      // Process 0 delinks the default while process 1 makes another wallet the default and delinks it.
      const results = await Promise.all([
        apiRequest(url(0), "DELETE", `/v1/wallets/${first}`, { apiKey }),
        apiRequest(url(1), "PUT", `/v1/wallets/${others[3]}/default`, { apiKey }),
        apiRequest(url(1), "DELETE", `/v1/wallets/${others[3]}`, { apiKey }),
        apiRequest(url(0), "DELETE", `/v1/wallets/${others[0]}`, { apiKey }),
      ]);
      expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 404)).toEqual([]);
      const left = await wallets(apiKey, 1);
      expect(left.map((w) => w.public_key)).toEqual([others[1], others[2]]);
      checkOneDefault(left);
      checkOneDefault(await wallets(apiKey, 0));
    });
  },
);
