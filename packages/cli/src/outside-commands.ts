/**
 * `lasertrade build` and `lasertrade submit`: trades by an outside wallet (a hardware wallet, a bot's own
 * signer). `build` prints the unsigned transaction the service built; `submit` sends it back signed, signing it
 * here first when given the signer's keypair file (a Solana CLI keypair: a JSON array of 64 bytes).
 */
import { createPrivateKey, sign } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import type { Context } from "./context.js";
import { callOptions, str, type Opts } from "./execution-options.js";

// The DER prefix of an ed25519 PKCS#8 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** Signs a built transaction (base64) as its fee payer with a Solana keypair file's 64 bytes. */
export function signBuilt(transaction: string, keypair: readonly number[]): string {
  const wire = Buffer.from(transaction, "base64");
  const count = wire[0] ?? 0;
  if (keypair.length !== 64 || count === 0 || count > 127)
    throw new Error("not a built transaction or keypair");
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(keypair.slice(0, 32))]),
    format: "der",
    type: "pkcs8",
  });
  const message = wire.subarray(1 + 64 * count);
  // The fee payer's slot is the first; any other (a create's mint) the service signed already.
  wire.set(sign(null, message, key), 1);
  return wire.toString("base64");
}

async function readText(arg: string): Promise<string> {
  if (arg !== "-") return arg.trim();
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

/**
 * The transactions an argument holds: base64 text, or a build answer as JSON (`lasertrade --json build … |
 * lasertrade submit -`): its `transaction`, or a raced build's variants in order.
 */
export function builtTransactions(text: string): string[] {
  if (!text.startsWith("{")) return [text];
  const built = JSON.parse(text) as {
    transaction?: string;
    variants?: { transaction: string }[];
    legs?: { transaction: string }[];
  };
  if (built.variants !== undefined) return built.variants.map((v) => v.transaction);
  if (built.legs !== undefined) return built.legs.map((l) => l.transaction);
  if (built.transaction !== undefined) return [built.transaction];
  throw new Error("not a build answer: no transaction, variants or legs");
}

/** Adds `build` and `submit`. */
export function addOutsideCommands(program: Command, ctx: () => Context): void {
  program
    .command("build <action> <mint> <amount>")
    .description("build an unsigned buy or sell for an outside wallet (prints the base64 transaction)")
    .requiredOption("--public-key <address>", "the outside wallet that will sign and pay")
    .option("--slippage <percent>", "slippage percent (default 2)")
    .option("--pool <address>", "trade on this launchswap pool")
    .option("--tokens", "buy: amount is token atomic units, not SOL")
    .option(
      "--routes <names>",
      'race over these routes (comma-separated, or "all"): one variant each under the wallet\'s nonce account',
    )
    .option("--mev-protect", "race only over routes that protect from sandwiching")
    .option("--nonce-account <address>", "racing: a nonce account the wallet controls (default: its own)")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (action: string, mint: string, amount: string, o: Opts) => {
      if (action !== "buy" && action !== "sell") throw new Error("action must be buy or sell");
      const client = await ctx().client();
      const built = await client.trades.build(
        {
          public_key: String(o.publicKey),
          action,
          mint,
          amount,
          slippage: str(o.slippage),
          pool: str(o.pool),
          ...(action === "buy" ? { denominated_in_sol: o.tokens !== true } : {}),
          ...(typeof o.routes === "string"
            ? { routes: o.routes === "all" ? ("all" as const) : o.routes.split(",") }
            : {}),
          ...(o.mevProtect === true ? { mev_protect: true } : {}),
          nonce_account: str(o.nonceAccount),
        },
        callOptions(o),
      );
      await ctx().print(built);
    });

  program
    .command("submit <transaction...>")
    .description(
      "send what outside wallets signed (base64, or - for stdin: base64 or a build's JSON); several: a raced build's variants (raced) or a built bundle's legs in order (one bundle)",
    )
    .option(
      "--sign-with <keypair.json>",
      "sign here first with this keypair file; comma-separated, one per transaction, for a bundle's legs",
    )
    .option("--no-simulate", "send without simulating first")
    .option("--no-confirm", "return once sent, without waiting for confirmation")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (args: string[], o: Opts) => {
      const transactions: string[] = [];
      for (const arg of args) transactions.push(...builtTransactions(await readText(arg)));
      const keyFiles = str(o.signWith)?.split(",") ?? [];
      if (keyFiles.length > 1 && keyFiles.length !== transactions.length)
        throw new Error("--sign-with: one keypair file, or one per transaction");
      for (const [i, t] of transactions.entries()) {
        const keyFile = keyFiles[keyFiles.length === 1 ? 0 : i];
        if (keyFile !== undefined)
          transactions[i] = signBuilt(t, JSON.parse(await readFile(keyFile, "utf8")) as number[]);
      }
      const flags = { simulate: o.simulate !== false, confirm: o.confirm !== false };
      await ctx().execute(
        transactions.length === 1
          ? "sending a signed transaction"
          : `sending ${transactions.length} signed transactions`,
        (client) =>
          client.trades.send(
            transactions.length === 1
              ? { transaction: transactions[0]!, ...flags }
              : { transactions, ...flags },
            callOptions(o),
          ),
        o.confirm !== false,
      );
    });
}
