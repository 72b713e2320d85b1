/**
 * Build + sign micro-benchmark of the service's own trade path: everything between the account read
 * returning and the bytes going to the relay (interpret the read, quote, instruction builders, decrypt the
 * wallet key, compile, sign, serialize). The read is taken once from a localnet; the loop touches no network.
 */
import { Keypair, PublicKey } from "@solana/web3.js";
import type { Chain } from "../src/chain/chain.js";
import { signWith } from "../src/domain/execution/sign.js";
import { cachedTradeConfigs } from "../src/domain/trade/configs.js";
import { quoteRead, tradeInstructions } from "../src/domain/trade/plan.js";
import { parseTradeRequest } from "../src/domain/trade/request.js";
import { readAccounts } from "../src/chain/read-accounts.js";
import { interpretTradeRead, tradeReadPlan } from "../src/launch/trade-accounts.js";
import { createVault, parseMasterKey } from "../src/vault/index.js";
import { randomBytes } from "node:crypto";
import { percentile } from "../test/harness/index.js";

/** Percentiles of one micro-benchmark, in milliseconds. */
export interface BuildSignResult {
  venue: "bonding_curve" | "launchswap";
  iterations: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** The same percentiles of the process's CPU time per pass: time the thread was not running is left out. */
  cpuP50: number;
  cpuP99: number;
}

/**
 * Times `iterations` build+sign passes of one buy of `mint` by a fresh wallet against an already started
 * chain (caches loaded). The wallet needs no funds: nothing is sent.
 */
export async function benchBuildSign(
  chain: Pick<Chain, "rpc" | "caches" | "assemble">,
  mint: string,
  iterations: number,
  warmup = 200,
): Promise<BuildSignResult> {
  const vault = createVault(parseMasterKey(randomBytes(32).toString("hex"), "bench"));
  const kp = Keypair.generate();
  const publicKey = kp.publicKey.toBase58();
  const wallet = { publicKey, ...vault.encryptSecret(kp.secretKey, publicKey) };
  const intent = parseTradeRequest({ action: "buy", mint, amount: "0.001", simulate: false, confirm: false });
  const plan = tradeReadPlan({ mint: new PublicKey(mint), user: kp.publicKey, pool: null });
  const accounts = await readAccounts({ rpc: chain.rpc }, plan.addresses);
  const configs = cachedTradeConfigs(chain.caches);
  let venue: BuildSignResult["venue"] = "bonding_curve";

  const once = async (): Promise<[number, number]> => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    // The plan (PDA/ATA derivations) is part of the path: the service derives it before the read.
    const p = tradeReadPlan({ mint: new PublicKey(mint), user: new PublicKey(publicKey), pool: null });
    const read = interpretTradeRead(p, accounts);
    venue = read.venue;
    const quote = quoteRead(intent, read, configs);
    const instructions = await tradeInstructions(read, quote, configs);
    const tx = await signWith({ vault, chain }, wallet, () => ({ instructions, computeKind: "trade" }));
    if (tx.wire.length === 0) throw new Error("empty transaction");
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    return [wall, (cpu.user + cpu.system) / 1000];
  };
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const [wall, cpu] = await once();
    samples.push(wall);
    cpuSamples.push(cpu);
  }
  const sorted = samples.sort((a, b) => a - b);
  const cpuSorted = cpuSamples.sort((a, b) => a - b);
  return {
    venue,
    iterations,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
    cpuP50: percentile(cpuSorted, 50),
    cpuP99: percentile(cpuSorted, 99),
  };
}
