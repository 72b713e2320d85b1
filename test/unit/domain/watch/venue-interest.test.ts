/** Issue 29: watched mints are per-account interests over one shared entry per mint. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { VenueState } from "../../../../src/domain/watch/venue-state.js";
import { fakeWarmChain } from "../../../helpers/warm-fakes.js";

const mint = () => Keypair.generate().publicKey.toBase58();

describe("VenueState interests per account", () => {
  it("lists and unwatches per account; the entry goes when nobody wants it", async () => {
    let now = 0;
    const f = fakeWarmChain();
    const v = new VenueState({ accounts: f.accounts, maxMints: 10, idleMs: 1_000, now: () => now });
    const [a, b, shared, configured] = [mint(), mint(), mint(), mint()];
    await v.watch(a, true, 1);
    await v.watch(b, true, 2);
    await v.watch(shared, true, 1);
    await v.watch(shared, false, 2);
    await v.watch(configured, true);
    expect(v.list(1).map((w) => w.mint)).toEqual([a, shared]);
    expect(v.list(2)).toEqual([
      { mint: b, explicit: true },
      { mint: shared, explicit: false },
    ]);
    expect(v.list()).toHaveLength(4);

    expect(v.unwatch(b, 1)).toBe(false);
    expect(v.unwatch(configured, 1)).toBe(false);
    expect(v.unwatch(shared, 1)).toBe(true);
    expect(v.list().map((w) => w.mint)).toContain(shared);
    // Account 2's interest was implicit: with account 1's explicit one gone, the entry is swept when idle.
    expect(v.list().find((w) => w.mint === shared)?.explicit).toBe(false);
    now = 5_000;
    v.sweep();
    expect(v.list().map((w) => w.mint)).toEqual([a, b, configured]);
    expect(v.unwatch(a, 1)).toBe(true);
    expect(v.list().map((w) => w.mint)).toEqual([b, configured]);
    // Without an account (the service itself) the whole entry goes, as before.
    expect(v.unwatch(configured)).toBe(true);
    expect(v.list().map((w) => w.mint)).toEqual([b]);
    v.close();
  });
});
