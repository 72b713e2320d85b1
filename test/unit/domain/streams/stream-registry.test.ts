/** StreamRegistry (issue 29): caps per key and IP, re-checks on key-change hints, the expiry timer. */
import { describe, expect, it } from "vitest";
import {
  STREAM_END_CODES,
  StreamRegistry,
  streamVerdict,
  type StreamTicket,
} from "../../../../src/domain/streams/stream-registry.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const NOW = Date.parse("2026-06-01T00:00:00.000Z");

function key(id: number, over: Partial<KeyRecord> = {}): KeyRecord {
  return keyRecord({
    id,
    root: id === 1,
    name: `k${id}`,
    scopes: id === 1 ? null : ["read"],
    createdAt: "2026-01-01T00:00:00.000",
    ...over,
  });
}

function setup(caps = { perKey: 2, perIp: 3 }) {
  const keys = new Map<number, KeyRecord>();
  let hint: (a: number | undefined) => void = () => {};
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  let now = NOW;
  const registry = new StreamRegistry({
    caps,
    clock: () => new Date(now),
    store: {
      findKey: async (_a, id) => keys.get(id),
      onKeysChanged: (l) => {
        hint = l;
        return () => {};
      },
    },
    setTimer: (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return { cancel: () => (t.cancelled = true) };
    },
  });
  const ended: { name: string; code: number; reason: string }[] = [];
  const handle = (name: string) => ({
    end: (code: number, reason: string) => ended.push({ name, code, reason }),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    keys,
    registry,
    ended,
    handle,
    timers,
    hint: (a: number | undefined) => hint(a),
    settle,
    advance: (ms: number) => (now += ms),
  };
}

describe("StreamRegistry", () => {
  it("caps streams per IP (unauthenticated ones included) and per key; a released slot is free again", () => {
    const r = setup();
    const k = key(2);
    const a = r.registry.open("1.1.1.1", r.handle("a"), k) as StreamTicket;
    const b = r.registry.open("1.1.1.1", r.handle("b"), k) as StreamTicket;
    expect(typeof a).toBe("object");
    expect(typeof b).toBe("object");
    // Per key: the third stream of key 2 is refused, also from another IP.
    expect(r.registry.open("2.2.2.2", r.handle("c"), k)).toMatch(
      /too many open streams for this API key \(at most 2\)/,
    );
    expect(r.registry.refusal("2.2.2.2", 2)).toMatch(/API key/);
    // Per IP: a connection waiting for its auth message counts.
    const waiting = r.registry.open("1.1.1.1", r.handle("d")) as StreamTicket;
    expect(r.registry.open("1.1.1.1", r.handle("e"))).toMatch(/from this address \(at most 3\)/);
    // Binding the waiting one to the full key is refused and frees its IP slot.
    expect(waiting.bind(k)).toMatch(/API key/);
    expect(r.registry.size()).toBe(2);
    a.release();
    a.release(); // twice is harmless
    expect(r.registry.open("1.1.1.1", r.handle("f"), k)).not.toBeTypeOf("string");
    expect(r.registry.size()).toBe(2);
  });

  it("0 means no cap", () => {
    const r = setup({ perKey: 0, perIp: 0 });
    for (let i = 0; i < 50; i++)
      expect(r.registry.open("1.1.1.1", r.handle(`s${i}`), key(2))).not.toBeTypeOf("string");
  });

  it("a key-change hint ends the account's streams whose key was revoked (4401) or frozen (4403), and only those", async () => {
    const r = setup({ perKey: 0, perIp: 0 });
    r.keys.set(2, key(2));
    r.keys.set(3, key(3));
    r.keys.set(9, key(9, { accountId: 9 }));
    r.registry.open("ip", r.handle("two"), key(2));
    r.registry.open("ip", r.handle("three"), key(3));
    r.registry.open("ip", r.handle("other account"), key(9, { accountId: 9 }));
    r.registry.open("ip", r.handle("unauthenticated"));
    r.hint(1);
    await r.settle();
    expect(r.ended).toEqual([]);
    r.keys.set(2, key(2, { revokedAt: "2026-05-31T00:00:00.000Z" }));
    r.keys.set(3, key(3, { frozen: true }));
    r.keys.set(9, key(9, { accountId: 9, revokedAt: "2026-05-31T00:00:00.000Z" }));
    r.hint(1);
    await r.settle();
    expect(r.ended.map((e) => [e.name, e.code])).toEqual([
      ["two", STREAM_END_CODES.unauthorized],
      ["three", STREAM_END_CODES.forbidden],
    ]);
    expect(r.registry.size()).toBe(2);
    // undefined: any account (a reconnect of the listener).
    r.hint(undefined);
    await r.settle();
    expect(r.ended.map((e) => e.name)).toEqual(["two", "three", "other account"]);
  });

  it("a stream opened while its key or account is frozen ends at once with 4403 (reads are snapshots only)", async () => {
    const r = setup();
    r.registry.open("1.1.1.1", r.handle("frozen-key"), key(2, { frozen: true }));
    r.registry.open("1.1.1.2", r.handle("frozen-account"), key(3, { accountFrozen: true }));
    r.registry.open("1.1.1.3", r.handle("live"), key(4));
    await r.settle();
    expect(r.ended.map((e) => [e.name, e.code])).toEqual([
      ["frozen-key", 4403],
      ["frozen-account", 4403],
    ]);
    expect(r.registry.size()).toBe(1);
  });

  it("an account freeze ends every stream of the account, the root key's too", async () => {
    const r = setup({ perKey: 0, perIp: 0 });
    r.keys.set(1, key(1, { accountFrozen: true }));
    r.keys.set(2, key(2, { accountFrozen: true }));
    r.registry.open("ip", r.handle("root"), key(1));
    r.registry.open("ip", r.handle("sub"), key(2));
    r.hint(1);
    await r.settle();
    expect(r.ended.map((e) => [e.name, e.code])).toEqual([
      ["root", 4403],
      ["sub", 4403],
    ]);
  });

  it("a key with expires_at is re-checked at that time and ended with 4401", async () => {
    const r = setup();
    const k = key(2, { expiresAt: new Date(NOW + 60_000).toISOString() });
    r.keys.set(2, k);
    r.registry.open("ip", r.handle("expiring"), k);
    expect(r.timers).toHaveLength(1);
    expect(r.timers[0]!.ms).toBe(60_000);
    r.advance(60_000);
    r.timers[0]!.fn();
    await r.settle();
    expect(r.ended).toEqual([{ name: "expiring", code: 4401, reason: "API key expired" }]);
    expect(r.registry.size()).toBe(0);
  });

  it("streamVerdict: allowed, revoked, expired, frozen, no read scope, gone", () => {
    const now = new Date(NOW);
    expect(streamVerdict(key(2), now)).toBeUndefined();
    expect(streamVerdict(key(2, { revokedAt: "x" }), now)?.code).toBe(4401);
    expect(streamVerdict(key(2, { expiresAt: new Date(NOW).toISOString() }), now)?.code).toBe(4401);
    expect(streamVerdict(key(2, { frozen: true }), now)?.code).toBe(4403);
    expect(streamVerdict(key(2, { scopes: ["trade"] }), now)?.code).toBe(4403);
    expect(streamVerdict(undefined, now)?.code).toBe(4401);
  });
});
