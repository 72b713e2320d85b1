/**
 * `npx tsx bench/spend-guard-micro.ts [--calls 20000] [--rounds 5]`: CPU µs of what issue 29 added to an
 * execution between its build and its signature, on a migrated SQLite file as the service opens it: the key
 * re-read (`findKey` + `authorize`, every keyed execution) and the worst case of a curve buy's transaction
 * (`transactionWorstCase`, only for a key with a SOL cap). A trade costs about 600 µs of service CPU.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BN from "bn.js";
import { Keypair, TransactionInstruction } from "@solana/web3.js";
import {
  setComputeUnitLimit,
  setComputeUnitPrice,
  systemTransfer,
} from "../src/chain/budget-instructions.js";
import { transactionWorstCase } from "../src/domain/execution/worst-case-spend.js";
import { authorize } from "../src/domain/keys/scopes.js";
import { launchProgram } from "../src/launch/programs-offline.js";
import { isoNoZone, openStore } from "../src/store/index.js";
import { numberFlag } from "./flags.js";
import { runScript } from "./process-stats.js";

/** CPU µs per call of `f` over `calls` sequential calls. */
async function cpuPerCall(f: () => unknown, calls: number): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < calls; i++) await f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / calls;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const calls = numberFlag(argv, "calls", 20_000);
  const rounds = numberFlag(argv, "rounds", 5);
  const dir = mkdtempSync(join(tmpdir(), "lt-spend-guard-"));
  const store = await openStore(`sqlite:${join(dir, "db.sqlite")}`, dir);
  try {
    const { apiKey } = await store.createApiKeyWithWallet("hash-bench", {
      publicKey: Keypair.generate().publicKey.toBase58(),
      createdAt: isoNoZone(new Date()),
      ciphertext: "Y3Q=",
      nonce: "bm9uY2U=",
      tag: "dGFn",
      keyId: "k1",
    });
    const user = Keypair.generate().publicKey;
    const buy = new TransactionInstruction({
      programId: launchProgram.programId,
      keys: [{ pubkey: user, isSigner: true, isWritable: true }],
      data: launchProgram.coder.instruction.encode("buyExactSolIn", {
        spendableSolIn: new BN(100_000_000),
        minTokensOut: new BN(1),
        trackVolume: { 0: true },
      }),
    });
    const tx = {
      instructions: [
        setComputeUnitLimit(100_000),
        setComputeUnitPrice(1_000n),
        buy,
        systemTransfer(user, Keypair.generate().publicKey, 10_000n),
      ],
      signatureCount: 1,
      tipAccounts: [],
    };
    const recheck = async (): Promise<void> => {
      const key = await store.findKey(apiKey.id, apiKey.id);
      if (key === undefined) throw new Error("key gone");
      authorize(key, undefined, new Date());
    };
    for (let r = 0; r < rounds; r++) {
      const reread = await cpuPerCall(recheck, calls);
      const worst = await cpuPerCall(() => transactionWorstCase(tx), calls);
      console.log(`round ${r + 1}: key re-read ${reread.toFixed(1)} µs, worst case ${worst.toFixed(1)} µs`);
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runScript(main);
