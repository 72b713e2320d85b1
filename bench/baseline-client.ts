/**
 * The baseline of the benchmark: what a bot builder does without lasertrade, with the official SDK's online
 * helpers. Per trade: fetch Global, FeeConfig, the buy state and a blockhash, quote, build with the SDK,
 * add compute budget and the relay tip, sign with a local key (web3.js), send through the same relay.
 * It runs in its own process (`tsx bench/baseline-client.ts '<json job>'`) so that nothing of the service
 * (its memoized PDAs, its signer) is loaded, and prints one JSON line with the latencies.
 * `mode: "sequential"` awaits each helper in turn, as the SDK's examples read; `"parallel"` issues the
 * four reads at once, as a careful bot does.
 */
import { createRequire } from "node:module";
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import BN from "bn.js";
import bs58 from "bs58";
// The module itself, not the harness index: this process loads nothing of the service.
import { postJsonRpc, SEND_UNCHECKED } from "../test/harness/json-rpc.js";

// Loaded through require for the same reason as src/launch/sdk.ts (their ESM builds miss anchor's BN export).
const require = createRequire(import.meta.url);
const sdk = require("@pump-fun/pump-sdk") as typeof import("@pump-fun/pump-sdk");

/** What the bench hands the baseline process. */
export interface BaselineJob {
  rpcUrl: string;
  relayUrl: string;
  tipAccounts: string[];
  tipLamports: string;
  /** base58 64-byte secret of a funded wallet. */
  secretKey: string;
  mint: string;
  /** Lamports to spend per buy. */
  lamports: string;
  trades: number;
  warmup: number;
  mode: "sequential" | "parallel";
}

/** What it prints. */
export interface BaselineResult {
  latenciesMs: number[];
  /** Of the build + sign step alone (after the reads returned, before the send). */
  buildSignMs: number[];
  cpuMs: number;
  peakRssMb: number;
}

async function sendThroughRelay(relayUrl: string, wire: Uint8Array): Promise<void> {
  const { status, body } = await postJsonRpc<{ error?: { message?: string } }>(relayUrl, "sendTransaction", [
    Buffer.from(wire).toString("base64"),
    SEND_UNCHECKED,
  ]);
  if (status !== 200 || body.error) throw new Error(`relay refused: ${status} ${JSON.stringify(body)}`);
}

async function run(job: BaselineJob): Promise<BaselineResult> {
  const connection = new Connection(job.rpcUrl, "confirmed");
  const online = new sdk.OnlinePumpSdk(connection);
  const user = Keypair.fromSecretKey(bs58.decode(job.secretKey));
  const mint = new PublicKey(job.mint);
  const tips = job.tipAccounts.map((a) => new PublicKey(a));
  const lamports = new BN(job.lamports);

  const trade = async (): Promise<{ total: number; buildSign: number }> => {
    const t0 = performance.now();
    const reads = [
      () => online.fetchGlobal(),
      () => online.fetchFeeConfig(),
      () => online.fetchBuyState(mint, user.publicKey, TOKEN_2022_PROGRAM_ID),
      () => connection.getLatestBlockhash("confirmed"),
    ] as const;
    let global, feeConfig, state, latest;
    if (job.mode === "parallel") {
      [global, feeConfig, state, latest] = await Promise.all([
        reads[0](),
        reads[1](),
        reads[2](),
        reads[3](),
      ]);
    } else {
      global = await reads[0]();
      feeConfig = await reads[1]();
      state = await reads[2]();
      latest = await reads[3]();
    }
    const t1 = performance.now();
    const amount = sdk.getBuyTokenAmountFromSolAmount({
      global,
      feeConfig,
      mintSupply: state.bondingCurve.tokenTotalSupply,
      bondingCurve: state.bondingCurve,
      amount: lamports,
      quoteMint: state.quoteMint,
    });
    const instructions = await sdk.PUMP_SDK.buyInstructions({
      global,
      bondingCurveAccountInfo: state.bondingCurveAccountInfo,
      bondingCurve: state.bondingCurve,
      associatedUserAccountInfo: state.associatedUserAccountInfo,
      mint,
      user: user.publicKey,
      amount,
      solAmount: lamports,
      slippage: 5,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    });
    const tip = tips[Math.floor(Math.random() * tips.length)]!;
    const message = new TransactionMessage({
      payerKey: user.publicKey,
      recentBlockhash: latest.blockhash,
      instructions: [
        // A random limit offset keeps repeated identical buys distinct, as the service's offset does.
        ComputeBudgetProgram.setComputeUnitLimit({ units: 250_000 + Math.floor(Math.random() * 4096) }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 100_000 }),
        ...instructions,
        SystemProgram.transfer({
          fromPubkey: user.publicKey,
          toPubkey: tip,
          lamports: BigInt(job.tipLamports),
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([user]);
    const wire = tx.serialize();
    const t2 = performance.now();
    await sendThroughRelay(job.relayUrl, wire);
    return { total: performance.now() - t0, buildSign: t2 - t1 };
  };

  for (let i = 0; i < job.warmup; i++) await trade();
  const cpu0 = process.cpuUsage();
  const latenciesMs: number[] = [];
  const buildSignMs: number[] = [];
  for (let i = 0; i < job.trades; i++) {
    const r = await trade();
    latenciesMs.push(r.total);
    buildSignMs.push(r.buildSign);
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    latenciesMs,
    buildSignMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

if (process.argv[1]?.endsWith("baseline-client.ts")) {
  const job = JSON.parse(process.argv[2] ?? "{}") as BaselineJob;
  run(job).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
