/** GET /v1/executions: the key's history, paged newest first, filtered by wallet and kind, never another key's. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXECUTION, TRADE_RULES } from "../../../src/core/errors.js";
import { recordOutcome, recordPending } from "../../../src/domain/execution/records.js";
import type { ExecutionKind } from "../../../src/store/index.js";
import { buildTestApp, type TestApp } from "../../helpers/app.js";
import { expectAuthRequired } from "../../helpers/security.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function list(apiKey: string, query = "") {
  return t.app.inject({ method: "GET", url: `/v1/executions${query}`, headers: { "x-api-key": apiKey } });
}

async function keyIdOf(apiKey: string): Promise<number> {
  const key = await t.store.findApiKeyByHash(t.vault.hashApiKey(apiKey));
  if (!key) throw new Error("key not found");
  return key.id;
}

describe("GET /v1/executions", () => {
  it("pages newest first, filters by wallet and kind, and shows only the key's own records", async () => {
    const { apiKey, wallet, walletSecret } = await t.setup();
    const other = await t.setup();
    const id = await keyIdOf(apiKey);
    const otherId = await keyIdOf(other.apiKey);
    const kinds: ExecutionKind[] = ["trade", "transfer", "trade", "claim", "trade"];
    const ids: string[] = [];
    for (const [i, kind] of kinds.entries()) {
      const execId = await recordPending(t.store, {
        apiKeyId: id,
        kind,
        wallet,
        signatures: [`sig${i}`],
        request: { n: i },
        lastValidBlockHeight: 1000,
      });
      ids.push(execId);
      // Distinct created_at order without relying on the clock's resolution.
      await new Promise((r) => setTimeout(r, 5));
    }
    await recordOutcome(t.store, ids[0]!, {
      status: "confirmed",
      confirmationStatus: "confirmed",
      response: { ok: 1 },
    });
    await recordPending(t.store, {
      apiKeyId: otherId,
      kind: "trade",
      wallet: other.wallet,
      signatures: ["x"],
      lastValidBlockHeight: 1000,
      request: {},
    });

    const page1 = (await list(apiKey, "?limit=2")).json<{
      executions: { id: string; kind: string; signatures: string[] }[];
      next_offset: number | null;
    }>();
    expect(page1.executions.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(page1.next_offset).toBe(2);
    const page3 = (await list(apiKey, "?limit=2&offset=4")).json<{
      executions: { id: string }[];
      next_offset: null;
    }>();
    expect(page3.executions.map((e) => e.id)).toEqual([ids[0]]);
    expect(page3.next_offset).toBeNull();

    const trades = (await list(apiKey, `?kind=trade&wallet=${wallet}`)).json<{
      executions: { id: string }[];
    }>();
    expect(trades.executions.map((e) => e.id)).toEqual([ids[4], ids[2], ids[0]]);

    const first = (await list(apiKey, "?offset=4")).json<{ executions: Record<string, unknown>[] }>()
      .executions[0]!;
    expect(first).toMatchObject({
      kind: "trade",
      wallet,
      wallets: [wallet],
      signatures: ["sig0"],
      status: "confirmed",
      confirmation_status: "confirmed",
      request: { n: 0 },
      response: { ok: 1 },
    });
    const text = (await list(apiKey)).body;
    expect(text).not.toContain(walletSecret);
    expect(text).not.toContain("ciphertext");

    // Another key's wallet filter matches nothing rather than revealing anything.
    const foreign = (await list(apiKey, `?wallet=${other.wallet}`)).json<{ executions: unknown[] }>();
    expect(foreign.executions).toEqual([]);
  });

  it("refuses bad paging and filters with clear texts", async () => {
    const { apiKey } = await t.setup();
    const detail = async (q: string) => {
      const res = await list(apiKey, q);
      expect(res.statusCode).toBe(400);
      return res.json<{ detail: string }>().detail;
    };
    expect(await detail("?limit=0")).toBe(EXECUTION.historyLimit);
    expect(await detail("?limit=201")).toBe(EXECUTION.historyLimit);
    expect(await detail("?limit=abc")).toBe(EXECUTION.historyLimit);
    expect(await detail("?offset=-1")).toBe(EXECUTION.historyOffset);
    expect(await detail("?kind=swap")).toBe(
      EXECUTION.historyKind("trade, claim, consolidate, transfer, split, create, bundle"),
    );
    expect(await detail("?wallet=nope")).toBe(TRADE_RULES.walletInvalid);
  });

  it("requires an API key", async () => {
    await expectAuthRequired(t.app, "GET", "/v1/executions");
  });
});
