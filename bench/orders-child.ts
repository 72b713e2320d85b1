/**
 * The orders scenario (bench/orders.ts) as `npm run bench` runs it: in a process of its own (its RSS and CPU
 * figures are that process's alone), its markdown appended to the report. `--orders-only` runs just it
 * (`npm run bench -- --orders-only [--quick] [--orders-rounds N] [--orders-store file|postgres]`); `--quick` is its
 * short form too.
 */
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../test/harness/index.js";
import { stringFlag } from "./flags.js";

/** Whether the command line asks for the orders scenario alone. */
export function ordersOnly(argv: readonly string[]): boolean {
  return argv.includes("--orders-only");
}

/** Runs bench/orders.ts with `--expose-gc` and returns its table. */
export function runOrdersBench(argv: readonly string[]): string {
  const args: string[] = [];
  if (argv.includes("--quick")) args.push("--quick");
  const store = stringFlag(argv, "orders-store", "");
  if (store !== "") args.push("--store", store);
  const rounds = stringFlag(argv, "orders-rounds", "");
  if (rounds !== "") args.push("--rounds", rounds);
  // Inside the whole bench's quick form (the smoke test): one round of each side is enough to show it runs.
  else if (argv.includes("--quick") && !ordersOnly(argv)) args.push("--rounds", "1");
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "bench/orders.ts", ...args], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.toString().trim();
}
