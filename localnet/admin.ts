/** The operator API (LocalnetAdmin) and its HTTP routes under /admin/. */
import type { LandingRoutes } from "./server/landing-routes.js";
import { PublicKey } from "@solana/web3.js";
import type { FaultSettings, LocalnetAdmin } from "./api.js";
import type { Ledger } from "./ledger/index.js";
import type { LaunchOperator } from "./programs/index.js";
import type { CallStats, Faults } from "./server/faults.js";
import type { PubSub } from "./server/pubsub.js";
import type { RelayLog } from "./server/relay-log.js";
import type { AdminHandler } from "./server/http-server.js";

/** Collaborators of the admin API. */
export interface AdminDeps {
  ledger: Ledger;
  faults: Faults;
  /** The second relay's own switches. */
  relay2Faults: Faults;
  stats: CallStats;
  relayLog: RelayLog;
  operator: LaunchOperator;
  pubsub: PubSub;
  landing: LandingRoutes;
}

/** Builds the in-process operator API. */
export function createAdmin(d: AdminDeps): LocalnetAdmin {
  return {
    setFaults: (f) => d.faults.set(f),
    clearFaults: () => {
      d.faults.clear();
      d.relay2Faults.clear();
    },
    setRelay2Faults: (f) => d.relay2Faults.set(f),
    setLaunchGlobalLayout: (layout) => d.operator.setGlobalLayout(d.ledger, layout),
    stats: () => d.stats.snapshot(),
    resetStats: () => d.stats.reset(),
    relaySignatures: () => d.relayLog.list(),
    resetRelaySignatures: () => d.relayLog.reset(),
    routes: () => d.landing.list(),
    setRoute: (name, settings) => d.landing.set(name, settings),
    advanceSlots: (n) => {
      if (!Number.isInteger(n) || n < 0) throw new Error("n must be a non-negative integer");
      d.ledger.advanceSlots(n);
    },
    fund: (address, lamports) => d.ledger.fund(new PublicKey(address), lamports),
    createToken: (opts = {}) => {
      const { mint, creator } = d.operator.createToken(d.ledger, opts);
      return { mint: mint.toBase58(), creator: creator.toBase58() };
    },
    complete: (mint) => d.operator.completeCurve(d.ledger, new PublicKey(mint)),
    migrate: (mint, opts = {}) => {
      const { pool, signature } = d.operator.migrateCurve(d.ledger, new PublicKey(mint), opts.instruction);
      return { pool: pool.toBase58(), signature };
    },
    dropPubSubConnections: () => d.pubsub.dropConnections(),
    refusePubSub: (on) => d.pubsub.setRefusing(on),
    holdAccountNotifications: (on) => d.pubsub.holdAccountNotifications(on),
    delayAccountSubscribeAnswers: (ms) => d.pubsub.delayAccountSubscribeAnswers(ms),
    pubsubCounts: () => d.pubsub.counts(),
    rewriteAccount: (address, patch) => {
      const key = new PublicKey(address);
      const acc = d.ledger.getAccount(key);
      if (acc === null) throw new Error(`account ${address} does not exist`);
      d.ledger.setAccount(key, {
        ...acc,
        ...(patch.owner !== undefined ? { owner: new PublicKey(patch.owner) } : {}),
        ...(patch.data !== undefined ? { data: patch.data } : {}),
        ...(patch.lamports !== undefined ? { lamports: patch.lamports } : {}),
      });
    },
    setCashback: (user, amounts) => {
      const key = new PublicKey(user);
      d.operator.setBondingCashback(d.ledger, key, amounts.bondingLamports);
      d.operator.setSwapCashback(d.ledger, key, amounts.swapLamports);
    },
  };
}

function obj(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new Error("body must be a JSON object");
  return body as Record<string, unknown>;
}

function str(b: Record<string, unknown>, name: string): string {
  const v = b[name];
  if (typeof v !== "string" || v.length === 0) throw new Error(`${name} must be a string`);
  return v;
}

/** Reads a lamport amount given as a decimal string or a safe integer. */
function lamportsField(b: Record<string, unknown>, name: string, fallback?: bigint): bigint {
  const v = b[name];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v === "string" && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw new Error(`${name} must be a non-negative integer (string or number)`);
}

function optBool(b: Record<string, unknown>, name: string): boolean | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw new Error(`${name} must be a boolean`);
  return v;
}

function optStr(b: Record<string, unknown>, name: string): string | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw new Error(`${name} must be a string`);
  return v;
}

/** The admin HTTP routes, keyed "<METHOD> <path>". */
export function adminRoutes(
  admin: LocalnetAdmin,
  faults: Faults,
  ledger: Ledger,
  relay2Faults: Faults,
): Map<string, AdminHandler> {
  const r = new Map<string, AdminHandler>();
  r.set("GET /admin/relay2/faults", () => relay2Faults.current());
  r.set("POST /admin/relay2/faults", (body) => {
    const b = obj(body);
    admin.setRelay2Faults(b.clear === true ? {} : (b as FaultSettings));
    return relay2Faults.current();
  });
  r.set("POST /admin/launch-global-layout", (body) => {
    const layout = str(obj(body), "layout");
    if (layout !== "original" && layout !== "altered") throw new Error("layout must be original or altered");
    admin.setLaunchGlobalLayout(layout);
    return { layout };
  });
  r.set("GET /admin/routes", () => admin.routes());
  r.set("POST /admin/routes", (body) => {
    const b = obj(body);
    return admin.setRoute(str(b, "name"), b);
  });
  r.set("GET /admin/faults", () => faults.current());
  r.set("POST /admin/faults", (body) => {
    const b = obj(body);
    if (b.clear === true) admin.clearFaults();
    else admin.setFaults(b as FaultSettings);
    return faults.current();
  });
  r.set("DELETE /admin/faults", () => {
    admin.clearFaults();
    return faults.current();
  });
  r.set("GET /admin/stats", () => admin.stats());
  r.set("POST /admin/stats/reset", () => {
    admin.resetStats();
    return { ok: true };
  });
  r.set("GET /admin/relay/signatures", () => ({ signatures: admin.relaySignatures() }));
  r.set("POST /admin/relay/signatures/reset", () => {
    admin.resetRelaySignatures();
    return { ok: true };
  });
  r.set("POST /admin/slots", (body) => {
    const b = obj(body);
    const n = b.n ?? 1;
    if (typeof n !== "number") throw new Error("n must be a number");
    admin.advanceSlots(n);
    return { slot: ledger.slot() };
  });
  r.set("POST /admin/fund", (body) => {
    const b = obj(body);
    admin.fund(str(b, "address"), lamportsField(b, "lamports"));
    return { ok: true };
  });
  r.set("POST /admin/tokens", (body) => {
    const b = obj(body);
    return admin.createToken({
      name: optStr(b, "name"),
      symbol: optStr(b, "symbol"),
      uri: optStr(b, "uri"),
      mayhem: optBool(b, "mayhem"),
      cashback: optBool(b, "cashback"),
    });
  });
  r.set("POST /admin/complete", (body) => {
    admin.complete(str(obj(body), "mint"));
    return { ok: true };
  });
  r.set("POST /admin/pubsub/drop", () => ({ dropped: admin.dropPubSubConnections() }));
  r.set("POST /admin/pubsub/refuse", (body) => {
    admin.refusePubSub(optBool(obj(body), "on") ?? true);
    return { ok: true };
  });
  r.set("POST /admin/pubsub/hold-accounts", (body) => {
    admin.holdAccountNotifications(optBool(obj(body), "on") ?? true);
    return { ok: true };
  });
  r.set("POST /admin/pubsub/delay-account-answers", (body) => {
    const ms = obj(body).ms ?? 0;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) throw new Error("ms must be a number ≥ 0");
    admin.delayAccountSubscribeAnswers(ms);
    return { ok: true };
  });
  r.set("GET /admin/pubsub", () => admin.pubsubCounts());
  r.set("POST /admin/account", (body) => {
    const b = obj(body);
    const data = optStr(b, "dataBase64");
    admin.rewriteAccount(str(b, "address"), {
      owner: optStr(b, "owner"),
      data: data === undefined ? undefined : new Uint8Array(Buffer.from(data, "base64")),
      lamports: b.lamports === undefined ? undefined : lamportsField(b, "lamports"),
    });
    return { ok: true };
  });
  r.set("POST /admin/migrate", (body) => {
    const b = obj(body);
    const instruction = optStr(b, "instruction");
    if (instruction !== undefined && instruction !== "migrate" && instruction !== "migrate_v2")
      throw new Error('instruction must be "migrate" or "migrate_v2"');
    return admin.migrate(str(b, "mint"), instruction === undefined ? {} : { instruction });
  });
  r.set("POST /admin/cashback", (body) => {
    const b = obj(body);
    admin.setCashback(str(b, "user"), {
      bondingLamports: lamportsField(b, "bondingLamports", 0n),
      swapLamports: lamportsField(b, "swapLamports", 0n),
    });
    return { ok: true };
  });
  return r;
}
