/**
 * Raced trades through the API on the localnet's four landing routes: one variant per route, each tipping its
 * own route, all advancing the wallet's durable nonce (created on demand, its rent stated); exactly one lands,
 * the answer says which route and in how many slots, the tips received are one tip, GET /v1/routes counts the
 * sends. `mev_protect` keeps only protecting routes; a bad route name is a 400; a nonce closed or advanced
 * outside the service is handled.
 */
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";
import { decodeNonce, nonceAddress } from "../../../src/chain/landing/nonce.js";
import { useE2e } from "../../helpers/use-e2e.js";

const stats = new RouteStats();
const e2e = useE2e({ routes: { stats } });

interface RacedAnswer {
  signature: string;
  confirmed: boolean;
  landed_via: string | null;
  slots_to_land: number | null;
  routes: { route: string; signature: string; accepted: boolean; tip_lamports: string }[];
  nonce: { address: string; created: boolean; rent_lamports: string };
}

async function raced(apiKey: string, body: Record<string, unknown>): Promise<RacedAnswer> {
  const res = await e2e.post(apiKey, "/v1/trades/execute", { simulate: false, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RacedAnswer>();
}

async function tipsReceived(): Promise<bigint> {
  let sum = 0n;
  for (const r of e2e.localnet.routes) for (const a of r.tipAccounts) sum += await e2e.balance(a);
  return sum;
}

async function landedCount(signatures: string[]): Promise<number> {
  const { value } = await e2e.connection.getSignatureStatuses(signatures);
  return value.filter((s) => s !== null).length;
}

describe("raced trades", () => {
  it("races every route under one nonce: exactly one variant lands, one tip is paid, the answer says which", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const tipsBefore = await tipsReceived();
    const a = await raced(apiKey, { action: "buy", mint, amount: "0.01", routes: "all" });
    expect(a.routes.map((v) => v.route)).toEqual(["route-a", "route-b", "route-c", "route-d"]);
    expect(a.routes.every((v) => v.accepted)).toBe(true);
    expect(new Set(a.routes.map((v) => v.signature)).size).toBe(4);
    expect(a.nonce).toMatchObject({ created: true, rent_lamports: "1447680" });
    expect(a.nonce.address).toBe((await nonceAddress(new PublicKey(wallet))).toBase58());
    expect(a.confirmed).toBe(true);
    expect(a.routes.map((v) => v.route)).toContain(a.landed_via);
    expect(a.slots_to_land).toBeGreaterThanOrEqual(0);
    expect(a.routes.find((v) => v.route === a.landed_via)!.signature).toBe(a.signature);
    // The other variants can no longer land (their nonce value is spent).
    e2e.localnet.admin.advanceSlots(5);
    expect(await landedCount(a.routes.map((v) => v.signature))).toBe(1);
    expect((await tipsReceived()) - tipsBefore).toBe(BigInt(a.routes[0]!.tip_lamports));
    expect(await e2e.tokenBalance(wallet, mint)).toBeGreaterThan(0n);

    // The next raced trade reuses the nonce.
    const b = await raced(apiKey, { action: "buy", mint, amount: "0.01", routes: ["route-b", "route-c"] });
    expect(b.nonce.created).toBe(false);
    expect(b.routes.map((v) => v.route)).toEqual(["route-b", "route-c"]);

    const res = await e2e.get(apiKey, "/v1/routes");
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json<{ routes: { name: string; last_1h: { sent: number; landed: number } }[] }>()
      .routes;
    expect(listed.map((r) => r.name)).toEqual(["route-a", "route-b", "route-c", "route-d"]);
    expect(listed.reduce((n, r) => n + r.last_1h.sent, 0)).toBeGreaterThanOrEqual(6);
    // The same figures in Prometheus text, per route and window.
    const metrics = (await e2e.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toMatch(/lasertrade_route_sent\{route="route-b",window="1h"\} [1-9]/);
    expect(metrics).toMatch(/lasertrade_route_demoted\{route="route-a"\} 0/);
  });

  it("mev_protect keeps only the protecting routes; bad racing fields are 400s naming the problem", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.setRoute("route-a", { drop_rate: 0 });
    const a = await raced(apiKey, { action: "buy", mint, amount: "0.01", mev_protect: true });
    expect(a.routes.map((v) => v.route)).toEqual(["route-a"]);
    expect(a.landed_via).toBe("route-a");
    const bad = async (body: Record<string, unknown>) => {
      const res = await e2e.post(apiKey, "/v1/trades/execute", {
        action: "buy",
        mint,
        amount: "0.01",
        ...body,
      });
      expect(res.statusCode).toBe(400);
      return res.json<Record<string, unknown>>();
    };
    expect(await bad({ routes: ["nope"] })).toMatchObject({
      code: "landing.unknown_route",
      detail: 'unknown route "nope"',
      configured: ["route-a", "route-b", "route-c", "route-d"],
    });
    expect(await bad({ routes: 3 })).toEqual({
      code: "landing.routes_type",
      detail: 'routes must be "all" or a list of route names',
    });
    expect(await bad({ routes: ["route-b"], mev_protect: true })).toMatchObject({
      detail: "mev_protect: none of the chosen routes protects from sandwiching",
      protecting: ["route-a"],
    });
  });

  it("a nonce advanced or closed outside the service: the next raced trade uses its new value, or recreates it", async () => {
    const { apiKey, wallet, walletSecret } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const first = await raced(apiKey, { action: "buy", mint, amount: "0.01", routes: "all" });
    const nonceKey = new PublicKey(first.nonce.address);
    const owner = Keypair.fromSecretKey(bs58.decode(walletSecret));
    expect(owner.publicKey.toBase58()).toBe(wallet);
    const send = async (tx: Transaction) => {
      tx.recentBlockhash = (await e2e.connection.getLatestBlockhash()).blockhash;
      tx.feePayer = owner.publicKey;
      tx.sign(owner);
      const sig = await e2e.connection.sendRawTransaction(tx.serialize());
      for (let i = 0; i < 200 && (await landedCount([sig])) === 0; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(await landedCount([sig])).toBe(1);
    };
    const readNonce = async () =>
      decodeNonce(nonceKey, await e2e.chain.rpc.getAccountInfo(nonceKey).then((r) => r.value));
    // Advanced outside (a later slot than its last advance).
    e2e.localnet.admin.advanceSlots(2);
    const before = (await readNonce())!.value;
    await send(
      new Transaction().add(
        SystemProgram.nonceAdvance({ noncePubkey: nonceKey, authorizedPubkey: owner.publicKey }),
      ),
    );
    expect((await readNonce())!.value).not.toBe(before);
    e2e.localnet.admin.advanceSlots(2);
    const second = await raced(apiKey, { action: "buy", mint, amount: "0.01", routes: "all" });
    expect(second.nonce.created).toBe(false);
    expect(second.confirmed).toBe(true);
    // Closed outside: withdrawn to the wallet.
    e2e.localnet.admin.advanceSlots(2);
    const lamports = Number((await readNonce())!.lamports);
    await send(
      new Transaction().add(
        SystemProgram.nonceWithdraw({
          noncePubkey: nonceKey,
          authorizedPubkey: owner.publicKey,
          toPubkey: owner.publicKey,
          lamports,
        }),
      ),
    );
    expect(await readNonce()).toBeNull();
    const third = await raced(apiKey, { action: "buy", mint, amount: "0.01", routes: "all" });
    expect(third.nonce.created).toBe(true);
    expect(third.confirmed).toBe(true);
  });

  it("a route that keeps failing is demoted, says so, and is left out of the next races", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    // route-d now refuses every variant (its minimum tip is above the trade's).
    e2e.localnet.admin.setRoute("route-d", { min_tip_lamports: 10_000_000_000 });
    for (let i = 0; i < 5; i++) {
      const a = await raced(apiKey, { action: "buy", mint, amount: "0.001", routes: "all" });
      expect(a.routes.find((v) => v.route === "route-d")).toMatchObject({
        accepted: false,
        error: "http_4xx",
      });
    }
    const listed = (await e2e.get(apiKey, "/v1/routes")).json<{
      routes: { name: string; demoted: boolean; demoted_reason: string | null }[];
    }>().routes;
    expect(listed.find((r) => r.name === "route-d")).toMatchObject({
      demoted: true,
      demoted_reason: "the last 5 sends failed (http_4xx)",
    });
    const next = await raced(apiKey, { action: "buy", mint, amount: "0.001", routes: "all" });
    expect(next.routes.map((v) => v.route)).toEqual(["route-a", "route-b", "route-c"]);
    e2e.localnet.admin.setRoute("route-d", { min_tip_lamports: 1_000 });
  });
});
