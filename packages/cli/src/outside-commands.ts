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

/** Adds `build` and `submit`. */
export function addOutsideCommands(program: Command, ctx: () => Context): void {
  program
    .command("build <action> <mint> <amount>")
    .description("build an unsigned buy or sell for an outside wallet (prints the base64 transaction)")
    .requiredOption("--public-key <address>", "the outside wallet that will sign and pay")
    .option("--slippage <percent>", "slippage percent (default 2)")
    .option("--pool <address>", "trade on this launchswap pool")
    .option("--tokens", "buy: amount is token atomic units, not SOL")
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
        },
        callOptions(o),
      );
      await ctx().print(built);
    });

  program
    .command("submit <transactions...>")
    .description(
      "send a built transaction signed by its outside wallet (base64, or - for stdin); with --bundle, every leg of a built bundle in order",
    )
    .option(
      "--sign-with <keypair.json>",
      "sign here first with this keypair file; comma-separated, one per transaction, for a bundle's legs",
    )
    .option("--bundle", "the transactions are the legs of one bundle (POST /v1/laser/bundle/build)")
    .option("--no-simulate", "send without simulating first")
    .option("--no-confirm", "return once sent, without waiting for confirmation")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (args: string[], o: Opts) => {
      const transactions = await Promise.all(args.map(readText));
      const keyFiles = str(o.signWith)?.split(",") ?? [];
      if (keyFiles.length > 1 && keyFiles.length !== transactions.length)
        throw new Error("--sign-with: one keypair file, or one per transaction");
      for (const [i, t] of transactions.entries()) {
        const keyFile = keyFiles[keyFiles.length === 1 ? 0 : i];
        if (keyFile !== undefined)
          transactions[i] = signBuilt(t, JSON.parse(await readFile(keyFile, "utf8")) as number[]);
      }
      if (o.bundle !== true && transactions.length !== 1)
        throw new Error("several transactions are the legs of a bundle: add --bundle");
      const flags = { simulate: o.simulate !== false, confirm: o.confirm !== false };
      await ctx().execute(
        o.bundle === true
          ? `sending a bundle of ${transactions.length} legs`
          : "sending a signed transaction",
        (client) =>
          client.trades.send(
            o.bundle === true ? { transactions, ...flags } : { transaction: transactions[0]!, ...flags },
            callOptions(o),
          ),
        o.confirm !== false,
      );
    });
}
