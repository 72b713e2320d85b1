/**
 * Issue 29 finding 12: a freeze (or revocation) that commits while a trade is being built stops it before
 * anything is signed, recorded or sent. The trade is held at its state read (a test hook on the chain's fetch:
 * deterministic, no timing), the account or key is frozen meanwhile, then the read is released.
 */
import { describe, expect, it } from "vitest";
import type { FetchLike } from "../../src/chain/json-rpc.js";
import { LAUNCH_GLOBAL } from "../../src/launch/programs.js";
import { useE2e } from "../helpers/use-e2e.js";
import { callWith, createSubKey, expectRefusal } from "../helpers/security.js";

/** Holds the next trade state read (getMultipleAccounts, not a cache refresh) until released. */
function readGate() {
  let armed = false;
  let reached: () => void = () => undefined;
  let release: () => void = () => undefined;
  let reachedP = Promise.resolve();
  let releaseP = Promise.resolve();
  const fetch: FetchLike = async (url, init) => {
    const req = JSON.parse(init.body) as { method?: string; params?: unknown[] };
    const first = Array.isArray(req.params?.[0]) ? (req.params[0] as unknown[])[0] : undefined;
    if (armed && req.method === "getMultipleAccounts" && first !== LAUNCH_GLOBAL.toBase58()) {
      armed = false;
      reached();
      await releaseP;
    }
    return (globalThis.fetch as unknown as FetchLike)(url, init);
  };
  return {
    fetch,
    /** Arms the gate; the returned promise resolves once a read is held. */
    arm(): Promise<void> {
      armed = true;
      reachedP = new Promise((r) => (reached = r));
      releaseP = new Promise((r) => (release = r));
      return reachedP;
    },
    release: () => release(),
  };
}

const gate = readGate();
const e2e = useE2e({ chain: { fetch: gate.fetch } });

async function held(
  key: string,
  body: Record<string, unknown>,
  meanwhile: () => Promise<void>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const reached = gate.arm();
  const pending = callWith(e2e.app, key, "POST", "/v1/trades/execute", body);
  await reached;
  await meanwhile();
  gate.release();
  return pending;
}

describe("freeze is a hard stop between build and signature", () => {
  it("an account freeze that commits while a trade is held at its read: 403 frozen, nothing sent", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"] });
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await held(bot.apiKey, { action: "buy", mint, amount: "0.1" }, async () => {
      expect((await callWith(e2e.app, root, "POST", "/v1/account/freeze")).status).toBe(200);
    });
    expectRefusal(r, 403, "frozen", "trade admitted before the account freeze");
    expect(r.body.detail).toBe(
      "account is frozen; the root key can unfreeze it with POST /v1/account/unfreeze",
    );
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    await callWith(e2e.app, root, "POST", "/v1/account/unfreeze");
    expect((await callWith(e2e.app, root, "GET", "/v1/executions")).body.executions).toEqual([]);
  });

  it("the root key's own trade stops too when the account is frozen meanwhile", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const r = await held(root, { action: "buy", mint, amount: "0.1" }, async () => {
      expect((await callWith(e2e.app, root, "POST", "/v1/account/freeze")).status).toBe(200);
    });
    expectRefusal(r, 403, "frozen", "root trade admitted before the account freeze");
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
    expect(await e2e.balance(wallet)).toBe(before);
  });

  it("a key freeze and a revocation meanwhile stop the key's trade the same way", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
    const { mint } = e2e.localnet.admin.createToken();
    const bot = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"] });
    const before = await e2e.balance(wallet);
    e2e.reset();
    const frozen = await held(bot.apiKey, { action: "buy", mint, amount: "0.1" }, async () => {
      expect((await callWith(e2e.app, root, "POST", `/v1/keys/${bot.id}/freeze`)).status).toBe(200);
    });
    expectRefusal(frozen, 403, "frozen", "trade admitted before the key freeze");
    expect(frozen.body.detail).toBe("API key is frozen");
    expect((await callWith(e2e.app, root, "POST", `/v1/keys/${bot.id}/unfreeze`)).status).toBe(200);
    const revoked = await held(bot.apiKey, { action: "buy", mint, amount: "0.1" }, async () => {
      expect((await callWith(e2e.app, root, "DELETE", `/v1/keys/${bot.id}`)).status).toBe(200);
    });
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toBe("API key revoked");
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
    expect(await e2e.balance(wallet)).toBe(before);
  });
});
