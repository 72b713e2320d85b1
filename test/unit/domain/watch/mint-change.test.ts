/**
 * Issue 31: the warm state tells its mint listeners (the order engine) of a change once it holds it and once a
 * completed curve's routing is invalidated, and says whether the changed account is the curve (its one account
 * is the whole price: the engine evaluates it at once) or another account of the mint (a pool's vault: wait).
 */
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { AccountInfo } from "../../../../src/chain/rpc-client.js";
import { VenueState } from "../../../../src/domain/watch/venue-state.js";
import { LAUNCH_PROGRAM_ID, bondingCurveAddress } from "../../../../src/launch/programs.js";
import { bondingCurveData } from "../../../helpers/fixtures.js";
import { fakeWarmChain } from "../../../helpers/warm-fakes.js";

// The `complete` flag's offset: the discriminator and five u64 reserves.
const COMPLETE_AT = 8 + 5 * 8;

const curveInfo = (data: Buffer): AccountInfo => ({
  lamports: 1n,
  owner: LAUNCH_PROGRAM_ID,
  data,
  executable: false,
});

describe("VenueState mint listeners", () => {
  it("tells a curve's change as whole, after invalidating a curve that completed", async () => {
    const f = fakeWarmChain();
    const v = new VenueState({ accounts: f.accounts, maxMints: 10, idleMs: 60_000 });
    const mint = Keypair.generate().publicKey;
    await v.watch(mint.toBase58(), true);
    const calls: string[] = [];
    const invalidate = f.accounts.invalidate.bind(f.accounts);
    f.accounts.invalidate = (addresses) => {
      calls.push("invalidate");
      invalidate(addresses);
    };
    v.onMintChange((m, whole) => calls.push(`${m === mint.toBase58() ? "mint" : m} whole=${whole}`));

    const open = await bondingCurveData();
    const completed = Buffer.from(open);
    completed[COMPLETE_AT] = 1;
    const curve = bondingCurveAddress(mint).toBase58();
    v.accountChanged(curve, curveInfo(open), curveInfo(Buffer.from(open)));
    expect(calls).toEqual(["mint whole=true"]);
    calls.length = 0;
    v.accountChanged(curve, curveInfo(open), curveInfo(completed));
    expect(calls).toEqual(["invalidate", "mint whole=true"]);
    v.close();
  });

  it("tells another account of the mint (not its curve) as not whole", async () => {
    const f = fakeWarmChain();
    const v = new VenueState({ accounts: f.accounts, maxMints: 10, idleMs: 60_000 });
    const mint = Keypair.generate().publicKey;
    await v.watch(mint.toBase58(), true);
    const seen: [string, boolean][] = [];
    v.onMintChange((m, whole) => seen.push([m, whole]));
    // The mint account itself is one of the watched mint's accounts.
    v.accountChanged(mint.toBase58(), null, null);
    expect(seen).toEqual([[mint.toBase58(), false]]);
    // An address of no watched mint tells nobody.
    v.accountChanged(new PublicKey(Buffer.alloc(32, 7)).toBase58(), null, null);
    expect(seen).toHaveLength(1);
    v.close();
  });
});
