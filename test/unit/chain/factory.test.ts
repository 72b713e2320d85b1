import { describe, it, expect } from "vitest";
import { Keypair, SystemProgram } from "@solana/web3.js";
import { createChain } from "../../../src/chain/chain.js";
import { localnetChainOptions } from "../../../src/chain/localnet-options.js";
import type { FetchLike } from "../../../src/chain/json-rpc.js";
import { ChainError } from "../../../src/chain/chain-error.js";
import { answerOf } from "../../../src/domain/execution/failure.js";

const BLOCKHASH = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
const tips = Array.from({ length: 3 }, () => Keypair.generate().publicKey.toBase58());

/** A fake upstream: RPC answers at http://rpc, the bundle relay fails or answers per `bundleUp`. */
function upstream(state: { bundleUp: boolean; rpcUp: boolean }): FetchLike {
  return (url, init) => {
    const req = JSON.parse(init.body) as { id: number; method: string; params: unknown[] };
    const reply = (result: string, status = 200) =>
      Promise.resolve({
        status,
        text: () => Promise.resolve(`{"jsonrpc":"2.0","id":${req.id},"result":${result}}`),
      });
    if (url.startsWith("http://bundle")) {
      return state.bundleUp ? reply(JSON.stringify(tips)) : reply("null", 503);
    }
    if (!state.rpcUp) return Promise.reject(new TypeError("fetch failed"));
    if (req.method === "getLatestBlockhash") {
      return reply(`{"context":{"slot":1},"value":{"blockhash":"${BLOCKHASH}","lastValidBlockHeight":300}}`);
    }
    if (req.method === "getMultipleAccounts") {
      return reply(
        `{"context":{"slot":1},"value":[${(req.params[0] as string[]).map(() => "null").join(",")}]}`,
      );
    }
    return reply("null", 404);
  };
}

function chainWith(state: { bundleUp: boolean; rpcUp: boolean }) {
  return createChain(
    localnetChainOptions(
      {
        rpcUrl: "http://rpc",
        relayUrl: "http://relay",
        bundleRelayUrl: "http://bundle",
        relayTipAccounts: tips,
        bundleTipAccounts: [],
        relayTipLamports: 1000n,
      },
      { bundleTipAccounts: undefined, fetch: upstream(state), rpcReadRetries: 0, random: () => 0.25 },
    ),
  );
}

describe("createChain", () => {
  it("refuses to start when the first cache load fails", async () => {
    const chain = chainWith({ bundleUp: true, rpcUp: false });
    await expect(chain.start()).rejects.toThrow(/fetch failed/);
  });

  it("starts without the bundle relay and reads its tip accounts once it answers", async () => {
    const state = { bundleUp: false, rpcUp: true };
    const chain = chainWith(state);
    await chain.start();
    const e = await chain.bundleTipAccounts().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ChainError);
    expect(answerOf(e)?.status).toBe(502);
    state.bundleUp = true;
    expect((await chain.bundleTipAccounts()).map((k) => k.toBase58())).toEqual(tips);
    chain.stop();
  });

  it("assembles from the caches with a fresh uniqueness offset per call", async () => {
    const chain = chainWith({ bundleUp: true, rpcUp: true });
    await chain.start();
    const payer = Keypair.generate();
    const input = {
      kind: "transfer" as const,
      payer,
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1n }),
      ],
    };
    const a = chain.assemble(input);
    const b = chain.assemble(input);
    expect(a.lastValidBlockHeight).toBe(300);
    expect(b.computeUnitLimit - a.computeUnitLimit).toBe(1);
    expect(a.signature).not.toBe(b.signature);
    expect(chain.computeBudget("transfer")).toEqual({
      maxUnitLimit: 30_000n + 4095n,
      priceMicroLamports: 10_000n,
    });
    chain.stop();
  });
});
