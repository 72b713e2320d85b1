/**
 * Issue 29, findings 8-11 as an attacker tries them: budgets hold per account (sub-keys add nothing), refusal
 * floods and revoked-key floods get 429 and write a bounded number of activity rows, the watch list is the
 * account's own, and an Idempotency-Key of one key is never replayed to (or reported to) another. Every probe
 * also checks that nothing moved on chain.
 */
import { describe, expect, it } from "vitest";
import { CUSTODY } from "../../src/domain/keys/texts.js";
import { useE2e } from "../helpers/use-e2e.js";
import { createSubKey } from "../helpers/security.js";
import { nextTestIp } from "../helpers/app.js";

const WINDOW_MS = 3_600_000;
// The app's clock starts half a budget window (and half a minute: the invalid-key throttle's window) from
// any window's end, and then advances normally: no probe straddles a window.
const started = Date.now();
const base = Date.UTC(2026, 0, 1, 0, 30, 30);
const clock = (): Date => new Date(base + (Date.now() - started));

const READS = 30;
const REFUSALS = 20;
const AUTH_FAILURES = 20;
const e2e = useE2e({
  warm: true,
  clock,
  env: {
    RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
    RATE_LIMIT_READS: String(READS),
    RATE_LIMIT_REFUSALS: String(REFUSALS),
    AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
  },
});

const statuses = (codes: number[]): Record<number, number> =>
  codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

function inject(
  apiKey: string,
  method: "GET" | "POST" | "DELETE",
  url: string,
  opts: { body?: unknown; ip?: string; headers?: Record<string, string> } = {},
) {
  return e2e.app.inject({
    method,
    url,
    ...(opts.ip !== undefined ? { remoteAddress: opts.ip } : {}),
    headers: {
      "x-api-key": apiKey,
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
  });
}

async function accountId(apiKey: string): Promise<number> {
  return (await e2e.store.findKeyByHash(e2e.vault.hashApiKey(apiKey)))!.accountId;
}

describe("issue 29: budgets per account (finding 9)", () => {
  it("10 read sub-keys share the account's read budget instead of multiplying it", async () => {
    const { apiKey: root, wallet } = await e2e.setup();
    const subs = [];
    for (let i = 0; i < 10; i++)
      subs.push(await createSubKey(e2e.app, root, { name: `reader-${i}`, scopes: ["read"] }));
    const codes: number[] = [];
    for (let round = 0; round < 5; round++)
      for (const s of subs) codes.push((await inject(s.apiKey, "GET", "/v1/wallets")).statusCode);
    // 50 reads by 10 keys, each far within its own 30: the account's 30 hold.
    expect(statuses(codes)).toEqual({ 200: READS, 429: 50 - READS });
    const refused = await inject(root, "GET", "/v1/wallets");
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ detail: string }>().detail).toContain("for this account");
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(await e2e.balance(wallet)).toBe(10_000_000_000n);
  });
});

describe("issue 29: refusal floods (finding 8)", () => {
  it("a read-only key hammering a trade route gets 429 after its refusals budget and writes few activity rows", async () => {
    const { apiKey: root, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const reader = await createSubKey(e2e.app, root, { name: "flooder", scopes: ["read"] });
    const before = await e2e.balance(wallet);
    const codes: number[] = [];
    const body = { action: "buy", mint, amount: "0.01", wallet };
    for (let i = 0; i < 60; i++)
      codes.push((await inject(reader.apiKey, "POST", "/v1/trades/execute", { body })).statusCode);
    expect(statuses(codes)).toEqual({ 403: REFUSALS, 429: 60 - REFUSALS });
    // Sampled rows: the 1st, 2nd, 4th, 8th and 16th refusal; their counts add up to 16 of the 20.
    const rows = await e2e.store.listActivity({
      accountId: await accountId(root),
      limit: 1000,
      keyId: reader.id,
    });
    expect(rows.map((r) => r.rule)).toEqual(["scope", "scope", "scope", "scope", "scope"]);
    expect(rows.map((r) => r.refusals).reverse()).toEqual([1, 1, 2, 4, 8]);
    expect(rows.every((r) => r.status === 403)).toBe(true);
    // The refusals spent no budget of the account's other keys: the root still reads (and nothing moved).
    expect((await inject(root, "GET", "/v1/wallets")).statusCode).toBe(200);
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
  });

  it("GET /v1/activity shows the sampled refusals with their count", async () => {
    const { apiKey: root } = await e2e.setup();
    const reader = await createSubKey(e2e.app, root, { name: "nosy", scopes: ["read"] });
    for (let i = 0; i < 4; i++) await inject(reader.apiKey, "GET", "/v1/activity");
    const res = await inject(root, "GET", `/v1/activity?key_id=${reader.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const activity = res.json<{ activity: { rule: string; refusals: number }[] }>().activity;
    expect(activity.map((a) => [a.rule, a.refusals])).toEqual([
      ["scope", 2],
      ["scope", 1],
      ["scope", 1],
    ]);
  });

  it("a revoked key's flood is throttled per IP like an unknown key's (401, then 429)", async () => {
    const { apiKey: root, wallet } = await e2e.setup();
    const sub = await createSubKey(e2e.app, root, { name: "gone", scopes: ["read", "trade"] });
    expect((await inject(root, "DELETE", `/v1/keys/${sub.id}`)).statusCode).toBe(200);
    const ip = nextTestIp();
    const answers = [];
    for (let i = 0; i < 2 * AUTH_FAILURES + 1; i++)
      answers.push(await inject(sub.apiKey, "GET", "/v1/wallets", { ip }));
    expect(answers[0]!.statusCode).toBe(401);
    expect(answers[0]!.json()).toEqual({ code: "auth.key_revoked", detail: CUSTODY.keyRevoked });
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(AUTH_FAILURES);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    // Another address with a valid key is not affected.
    expect((await inject(root, "GET", "/v1/wallets", { ip: nextTestIp() })).statusCode).toBe(200);
    expect(await e2e.balance(wallet)).toBe(10_000_000_000n);
  });
});

describe("issue 29: the watch list is the account's own (finding 10)", () => {
  it("lists only the caller's mints; deleting another account's mint is 404 and changes nothing", async () => {
    const a = await e2e.setup();
    const b = await e2e.setup();
    const mintA = e2e.localnet.admin.createToken().mint;
    const mintB = e2e.localnet.admin.createToken().mint;
    const shared = e2e.localnet.admin.createToken().mint;
    expect(
      (await inject(a.apiKey, "POST", "/v1/watch", { body: { mints: [mintA, shared] } })).statusCode,
    ).toBe(200);
    expect(
      (await inject(b.apiKey, "POST", "/v1/watch", { body: { mints: [mintB, shared] } })).statusCode,
    ).toBe(200);
    const list = async (k: string) =>
      (await inject(k, "GET", "/v1/watch")).json<{ watched: string[] }>().watched.sort();
    expect(await list(a.apiKey)).toEqual([mintA, shared].sort());
    expect(await list(b.apiKey)).toEqual([mintB, shared].sort());

    // A cannot unwatch (evict) B's mint.
    expect((await inject(a.apiKey, "DELETE", `/v1/watch/${mintB}`)).statusCode).toBe(404);
    expect(await list(b.apiKey)).toEqual([mintB, shared].sort());
    // A ends its own interest in the shared mint: B still watches it (the cache entry stays).
    expect((await inject(a.apiKey, "DELETE", `/v1/watch/${shared}`)).statusCode).toBe(200);
    expect(await list(a.apiKey)).toEqual([mintA]);
    expect(await list(b.apiKey)).toEqual([mintB, shared].sort());
    expect((await inject(a.apiKey, "DELETE", `/v1/watch/${shared}`)).statusCode).toBe(404);
    expect((await inject(b.apiKey, "DELETE", `/v1/watch/${shared}`)).statusCode).toBe(200);
    expect(await list(b.apiKey)).toEqual([mintB]);
    expect(await e2e.balance(a.wallet)).toBe(10_000_000_000n);
    expect(await e2e.balance(b.wallet)).toBe(10_000_000_000n);
  });

  it("a trade marks interest for the trading account only", async () => {
    const a = await e2e.setup();
    const b = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const res = await inject(a.apiKey, "POST", "/v1/trades/execute", {
      body: { action: "buy", mint, amount: "0.01" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await inject(a.apiKey, "GET", "/v1/watch")).json<{ watched: string[] }>().watched).toContain(
      mint,
    );
    expect((await inject(b.apiKey, "GET", "/v1/watch")).json<{ watched: string[] }>().watched).not.toContain(
      mint,
    );
    expect((await inject(b.apiKey, "DELETE", `/v1/watch/${mint}`)).statusCode).toBe(404);
    expect(await e2e.balance(b.wallet)).toBe(10_000_000_000n);
  });
});

describe("issue 29: Idempotency-Key per key (finding 11)", () => {
  it("a wallet-bound key reusing the root's Idempotency-Key gets no replay and no 422, and moves nothing", async () => {
    const { apiKey: root, wallet } = await e2e.setup();
    const other = await e2e.fundedWallet(root);
    const { mint } = e2e.localnet.admin.createToken();
    const bound = await createSubKey(e2e.app, root, { name: "bot", scopes: ["trade"], wallets: [other] });
    const body = { action: "buy", mint, amount: "0.01", wallet };
    const headers = { "idempotency-key": "order-1" };
    const first = await inject(root, "POST", "/v1/trades/execute", { body, headers });
    expect(first.statusCode, first.body).toBe(200);
    const afterRoot = await e2e.balance(wallet);
    const tokens = await e2e.tokenBalance(wallet, mint);

    // The same request from the bound key: before issue 29 it got the root's full answer (a replay).
    const replay = await inject(bound.apiKey, "POST", "/v1/trades/execute", { body, headers });
    expect(replay.statusCode).toBe(403);
    expect(replay.headers["idempotent-replayed"]).toBeUndefined();
    expect(replay.json<{ rule: string }>().rule).toBe("wallet");
    // A different request under the same value: before, 422 told the bound key that the value was in use.
    const own = await inject(bound.apiKey, "POST", "/v1/trades/execute", {
      body: { action: "buy", mint, amount: "0.01", wallet: other, dry_run: true },
      headers,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.headers["idempotent-replayed"]).toBeUndefined();
    // The root's own repeat still replays its first answer.
    const again = await inject(root, "POST", "/v1/trades/execute", { body, headers });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
    expect(await e2e.balance(wallet)).toBe(afterRoot);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(tokens);
    expect(await e2e.tokenBalance(other, mint)).toBe(0n);
  });
});
