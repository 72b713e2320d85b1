/** The gap re-read's rules: paging by `before` down to `until`, the slot bound, oldest first, seen and failed skipped. */
import { describe, expect, it } from "vitest";
import { readGap } from "../../../../src/domain/market/gap-fill.js";
import type { LogsNotification } from "../../../../src/domain/market/market-feed.js";

/** Signatures s1..sN (slot = index), newest first like the RPC; s3 failed; `unknown` ones the node does not have. */
function fakeRpc(n: number, unknown: string[] = []) {
  const all = Array.from({ length: n }, (_, i) => ({
    signature: `s${i + 1}`,
    slot: i + 1,
    err: i + 1 === 3 ? { InstructionError: [0, "Custom"] } : null,
  })).reverse();
  const calls: Record<string, unknown>[] = [];
  return {
    calls,
    async getSignaturesForAddress(_a: string, page: { limit?: number; before?: string; until?: string }) {
      calls.push({ ...page });
      let from = page.before === undefined ? 0 : all.findIndex((e) => e.signature === page.before) + 1;
      const out = [];
      for (; from < all.length && out.length < (page.limit ?? 1000); from++) {
        if (all[from]!.signature === page.until) break;
        out.push(all[from]!);
      }
      return out;
    },
    async getTransactionLogs(signature: string): Promise<string[] | null> {
      return unknown.includes(signature) ? null : [`log of ${signature}`];
    },
  };
}

function sink(seen: string[] = []) {
  const got: LogsNotification[] = [];
  return {
    got,
    has: (s: string) => seen.includes(s),
    ingest: async (n: LogsNotification) => void got.push(n),
  };
}

describe("readGap", () => {
  it("pages down to the last seen signature and hands the unseen, successful ones over oldest first", async () => {
    const rpc = fakeRpc(10);
    const s = sink(["s7"]);
    const r = await readGap(rpc, "prog", { signature: "s4", slot: 4 }, s, { pageSize: 2 });
    expect(r).toEqual({ listed: 6, reread: 5, complete: true });
    expect(s.got.map((n) => n.signature)).toEqual(["s5", "s6", "s8", "s9", "s10"]);
    expect(s.got[0]).toEqual({ signature: "s5", slot: 5, err: null, logs: ["log of s5"] });
    expect(rpc.calls[0]).toEqual({ limit: 2, until: "s4" });
    expect(rpc.calls[1]).toEqual({ limit: 2, until: "s4", before: "s9" });
  });

  it("without a signature, bounds the gap by the slot it went live at; failed transactions are not read", async () => {
    const s = sink();
    const r = await readGap(fakeRpc(6), "prog", { signature: null, slot: 2 }, s, { pageSize: 4 });
    expect(r).toEqual({ listed: 5, reread: 4, complete: true });
    expect(s.got.map((n) => n.signature)).toEqual(["s2", "s4", "s5", "s6"]);
  });

  it("reports a gap it cannot bound, or one longer than maxPages, as incomplete", async () => {
    expect(await readGap(fakeRpc(3), "p", { signature: null, slot: null }, sink())).toEqual({
      listed: 0,
      reread: 0,
      complete: false,
    });
    const r = await readGap(fakeRpc(10), "p", { signature: "s1", slot: 1 }, sink(), {
      pageSize: 2,
      maxPages: 2,
    });
    expect(r.complete).toBe(false);
    expect(r.listed).toBe(4);
  });

  it("skips a transaction the node does not have", async () => {
    const s = sink();
    const r = await readGap(fakeRpc(6, ["s5"]), "prog", { signature: "s3", slot: 3 }, s);
    expect(r).toEqual({ listed: 3, reread: 2, complete: true });
    expect(s.got.map((n) => n.signature)).toEqual(["s4", "s6"]);
  });
});
