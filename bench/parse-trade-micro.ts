/**
 * `npx tsx bench/parse-trade-micro.ts [--calls 200000] [--rounds 5]`: ns per parse of the warm-trade body
 * (`{action, amount, mint, simulate, confirm}`, as bench/profile-trade.ts sends it), for the choice of a schema
 * library (issue 30, docs/decisions.md "execution kind descriptors"):
 * - the trade kind's parser (today's hand-written rules: aliases, number-or-string amounts, the spec's texts);
 * - the path before issue 30: the parser twice (the custody plan and the service) and three object checks;
 * - TypeBox (`TypeCompiler.Compile(...).Check`) and zod 4 (`safeParse`) on the same fields, alone and followed by
 *   the parser (which must still run: the libraries' generic messages may never replace the spec's texts, and
 *   neither reads the aliases or turns "0.1" into lamports).
 */
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Keypair } from "@solana/web3.js";
import { z } from "zod";
import { BASE58_ADDRESS } from "../src/core/addresses.js";
import { tradeKind } from "../src/domain/trade/kind.js";
import { numberFlag } from "./flags.js";

const LIMITS = { tipMaxLamports: 100_000_000n };
const mint = Keypair.generate().publicKey.toBase58();
const body = { action: "buy", amount: "0.001", mint, simulate: false, confirm: false };

const amount = Type.Union([Type.String(), Type.Number()]);
const address = Type.String({ pattern: BASE58_ADDRESS.source });
const typebox = TypeCompiler.Compile(
  Type.Object({
    action: Type.Union([Type.Literal("buy"), Type.Literal("sell")]),
    mint: address,
    pool: Type.Optional(address),
    amount: Type.Optional(amount),
    amount_tokens: Type.Optional(amount),
    denominated_in_sol: Type.Optional(Type.Boolean()),
    slippage: Type.Optional(amount),
    slippage_bps: Type.Optional(Type.Integer()),
    simulate: Type.Optional(Type.Boolean()),
    confirm: Type.Optional(Type.Boolean()),
    measure_timing: Type.Optional(Type.Boolean()),
    wallet: Type.Optional(address),
  }),
);

const zAmount = z.union([z.string(), z.number()]);
const zAddress = z.string().regex(BASE58_ADDRESS);
const zod = z.looseObject({
  action: z.enum(["buy", "sell"]),
  mint: zAddress,
  pool: zAddress.optional(),
  amount: zAmount.optional(),
  amount_tokens: zAmount.optional(),
  denominated_in_sol: z.boolean().optional(),
  slippage: zAmount.optional(),
  slippage_bps: z.number().int().optional(),
  simulate: z.boolean().optional(),
  confirm: z.boolean().optional(),
  measure_timing: z.boolean().optional(),
  wallet: zAddress.optional(),
});

const isObject = (b: unknown): boolean => typeof b === "object" && b !== null && !Array.isArray(b);
const parse = (): unknown => tradeKind.parse(body, LIMITS);

const CANDIDATES: Record<string, () => unknown> = {
  "trade kind's parser (once per request, issue 30)": parse,
  "before issue 30: 3 object checks + parser twice": () => {
    if (!isObject(body) || !isObject(body) || !isObject(body)) throw new Error("not an object");
    parse();
    return parse();
  },
  "TypeBox compiled Check alone": () => typebox.Check(body),
  "TypeBox Check + parser": () => typebox.Check(body) && parse(),
  "zod 4 safeParse alone": () => zod.safeParse(body).success,
  "zod 4 safeParse + parser": () => zod.safeParse(body).success && parse(),
};

/** Median ns per call of `f` over `rounds` rounds of `calls` calls. */
function nsPerCall(f: () => unknown, calls: number, rounds: number): number {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) f();
    out.push(Number(process.hrtime.bigint() - t0) / calls);
  }
  out.sort((a, b) => a - b);
  return out[Math.floor(out.length / 2)]!;
}

const argv = process.argv.slice(2);
const calls = numberFlag(argv, "calls", 200_000);
const rounds = numberFlag(argv, "rounds", 5);
// Sanity: every candidate accepts the body (a refusing one would measure its error path).
for (const [name, f] of Object.entries(CANDIDATES)) if (!f()) throw new Error(`${name} refused the body`);
for (const f of Object.values(CANDIDATES)) nsPerCall(f, calls / 10, 1); // warm-up (JIT)
for (const [name, f] of Object.entries(CANDIDATES))
  console.log(`${nsPerCall(f, calls, rounds).toFixed(0).padStart(6)} ns/op  ${name}`);
