/**
 * Outside wallets racing on the localnet's four landing routes under their own durable nonce (SQLite; the
 * scenario: outside-race-scenario.ts). A nonce advanced or closed outside the service is a 409 at send or
 * build; mixed variants are a 400.
 */
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";
import { useE2e } from "../../helpers/use-e2e.js";
import {
  outsideRaceKit,
  racedOutsideScenario,
  type NonceBuild,
  type RacedBuild,
} from "./outside-race-scenario.js";

const e2e = useE2e({ routes: { stats: new RouteStats() } });
const { signed, sendOutside, readNonce, outsideWithNonce, racedBuild } = outsideRaceKit(e2e);

describe("outside wallets racing under their durable nonce", () => {
  it("creates the nonce, builds a variant per route, races the signed variants: exactly one lands", async () => {
    await racedOutsideScenario(e2e);
  });

  it("a nonce advanced or closed outside the service is a 409 at send and build; mixed variants are a 400", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    // No nonce account yet: the raced build names the fix.
    const bare = Keypair.generate();
    e2e.localnet.admin.fund(bare.publicKey.toBase58(), 1_000_000_000n);
    const none = await racedBuild(apiKey, bare, mint);
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json<{ code: string }>().code).toBe("outside.nonce_missing");

    const { signer, nonce } = await outsideWithNonce(apiKey);
    // Another wallet's nonce account named as its own.
    const foreign = await racedBuild(apiKey, bare, mint, { nonce_account: nonce.nonce_account });
    expect(foreign.statusCode, foreign.body).toBe(409);
    expect(foreign.json()).toMatchObject({
      code: "outside.other_authority",
      authority: signer.publicKey.toBase58(),
    });

    // Variants of two builds, or a plain build among them: 400, nothing sent.
    const one = (await racedBuild(apiKey, signer, mint)).json<RacedBuild>();
    const two = (await racedBuild(apiKey, signer, mint)).json<RacedBuild>();
    const mixed = await e2e.post(apiKey, "/v1/transactions/send", {
      transactions: [
        signed(one.variants[0]!.transaction, signer),
        signed(two.variants[1]!.transaction, signer),
      ],
    });
    expect(mixed.statusCode, mixed.body).toBe(400);
    expect(mixed.json<{ code: string }>().code).toBe("outside.variants_mixed");

    // Advanced outside the service after the build: the send is refused, nothing is recorded or sent.
    const nonceKey = new PublicKey(nonce.nonce_account);
    await sendOutside(
      signer,
      SystemProgram.nonceAdvance({ noncePubkey: nonceKey, authorizedPubkey: signer.publicKey }),
    );
    const stale = await e2e.post(apiKey, "/v1/transactions/send", {
      transactions: one.variants.map((v) => signed(v.transaction, signer)),
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({
      code: "outside.nonce_advanced",
      detail: "the nonce account was advanced since these variants were built: build them again",
      built_on: nonce.nonce_value,
    });

    // Closed outside the service (withdrawn to the wallet) after a build: 409 at send, then at build.
    e2e.localnet.admin.advanceSlots(2);
    const three = (await racedBuild(apiKey, signer, mint)).json<RacedBuild>();
    const lamports = Number((await readNonce(nonce.nonce_account))!.lamports);
    await sendOutside(
      signer,
      SystemProgram.nonceWithdraw({
        noncePubkey: nonceKey,
        authorizedPubkey: signer.publicKey,
        toPubkey: signer.publicKey,
        lamports,
      }),
    );
    expect(await readNonce(nonce.nonce_account)).toBeNull();
    const closed = await e2e.post(apiKey, "/v1/transactions/send", {
      transactions: three.variants.map((v) => signed(v.transaction, signer)),
    });
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json<{ code: string }>().code).toBe("outside.nonce_missing");
    const rebuilt = await racedBuild(apiKey, signer, mint);
    expect(rebuilt.statusCode, rebuilt.body).toBe(409);
    expect(rebuilt.json<{ code: string }>().code).toBe("outside.nonce_missing");
    // The nonce-account build offers its creation again.
    const offer = await e2e.post(apiKey, "/v1/nonce-accounts/build", {
      public_key: signer.publicKey.toBase58(),
    });
    expect(offer.json<NonceBuild>()).toMatchObject({ exists: false });
    // No token moved through any refused send.
    expect(await e2e.tokenBalance(signer.publicKey.toBase58(), mint)).toBe(0n);
  });
});
