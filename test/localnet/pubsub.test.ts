import { afterAll, beforeAll, describe, it, expect } from "vitest";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  Transaction,
  sendAndConfirmTransaction,
} from "@solana/web3.js";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";
import { closeWeb3Socket } from "../helpers/web3-socket.js";

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
  conn = new Connection(net.rpcUrl, { commitment: "confirmed", wsEndpoint: net.wsUrl });
});
afterAll(async () => {
  closeWeb3Socket(conn);
  await net.close();
});

describe("RPC PubSub", () => {
  it("lets web3.js confirm an airdrop and sendAndConfirmTransaction over signatureSubscribe", async () => {
    const payer = Keypair.generate();
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
    const airdrop = await conn.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    // "confirmed" needs one more slot: advance it while web3.js waits on the subscription.
    const confirming = conn.confirmTransaction(
      { signature: airdrop, blockhash, lastValidBlockHeight },
      "confirmed",
    );
    net.admin.advanceSlots(1);
    expect((await confirming).value.err).toBeNull();

    const dest = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: dest, lamports: 1e6 }),
    );
    const sig = await sendAndConfirmTransaction(conn, tx, [payer], { commitment: "processed" });
    expect((await conn.getSignatureStatuses([sig])).value[0]?.confirmationStatus).toBe("processed");
    expect(await conn.getBalance(dest)).toBe(1e6);
  });

  it("notifies slot changes", async () => {
    let id = 0;
    const first = new Promise<number>((resolve) => {
      id = conn.onSlotChange((s) => resolve(s.slot));
    });
    // Keep slots moving until the subscription (set up asynchronously by web3.js) reports one.
    const ticker = setInterval(() => net.admin.advanceSlots(1), 20);
    const slot = await first;
    clearInterval(ticker);
    await conn.removeSlotChangeListener(id);
    expect(slot).toBeLessThanOrEqual(await conn.getSlot());
    expect(slot).toBeGreaterThan(1);
  });
});
