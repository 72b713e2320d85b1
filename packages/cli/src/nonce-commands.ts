/**
 * `lasertrade nonce-account <public_key>`: an outside wallet's durable nonce account, which raced builds
 * (`build --routes`) advance. It prints the account, or the unsigned transaction creating it; with
 * `--sign-with` and `--rpc` it signs that transaction here and sends it to the RPC (the service never sees the
 * wallet's key).
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import type { Context } from "./context.js";
import { callOptions, str, type Opts } from "./execution-options.js";
import { signBuilt } from "./outside-commands.js";

/** Sends a signed transaction (base64) with the RPC's sendTransaction; resolves to its signature. */
async function sendToRpc(rpc: string, transaction: string): Promise<string> {
  const res = await fetch(rpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "sendTransaction",
      params: [transaction, { encoding: "base64" }],
    }),
  });
  const body = (await res.json()) as { result?: string; error?: { message: string } };
  if (body.result === undefined) throw new Error(`the RPC refused it: ${body.error?.message ?? res.status}`);
  return body.result;
}

/** Adds `nonce-account`. */
export function addNonceCommands(program: Command, ctx: () => Context): void {
  program
    .command("nonce-account <public_key>")
    .description("an outside wallet's durable nonce account for raced builds, or the transaction creating it")
    .option("--sign-with <keypair.json>", "sign the creation here with the wallet's keypair file")
    .option("--rpc <url>", "with --sign-with: send the signed creation to this RPC")
    .option("--idempotency-key <key>", "Idempotency-Key (default: a new one per call)")
    .action(async (publicKey: string, o: Opts) => {
      const client = await ctx().client();
      const built = await client.trades.nonceAccount({ public_key: publicKey }, callOptions(o));
      const keyFile = str(o.signWith);
      const rpc = str(o.rpc);
      if (built.transaction === null || keyFile === undefined) {
        await ctx().print(built);
        return;
      }
      const signed = signBuilt(built.transaction, JSON.parse(await readFile(keyFile, "utf8")) as number[]);
      if (rpc === undefined) {
        await ctx().print({ ...built, transaction: signed });
        return;
      }
      await ctx().print({ ...built, transaction: signed, signature: await sendToRpc(rpc, signed) });
    });
}
