/**
 * `npm run lookup-table`: creates (or, with --table, tops up) the address lookup table a create with its
 * first buy needs, paid by the --authority key, waits until it is usable and prints `LOOKUP_TABLES=<address>`
 * as the only stdout line. Progress and errors go to stderr. Exit 0 done, 1 failure, 2 bad invocation.
 */
import { ChainError } from "../chain/chain-error.js";
import { readFileSync } from "node:fs";
import {
  AddressLookupTableAccount,
  AddressLookupTableProgram,
  Keypair,
  type PublicKey,
} from "@solana/web3.js";
import { createChain, type Chain, type ChainOptions } from "../chain/chain.js";
import { isUpstreamError, upstreamDetail } from "../chain/upstream-errors.js";
import { chainOptionsFromConfig, ConfigError, loadConfig } from "../config/config.js";
import { formatLamportsAsSol as formatSol } from "../core/amounts.js";
import {
  createLookupTableAddress,
  createLookupTableContents,
  EXTEND_CHUNK,
  extendCreateLookupTable,
  installCreateLookupTable,
} from "../domain/create/lookup-table.js";
import { ApiError } from "../core/errors.js";
import { priorityFeeReserve } from "../domain/sol/reserve.js";
import { LOOKUP_TABLE_CAPACITY } from "../launch/lookup-table.js";
import {
  LOOKUP_TABLE_USAGE,
  parseLookupTableArgs,
  parseSecretKeyFile,
  UsageError,
} from "./lookup-table-args.js";

/** Where the command writes: `out` gets only the final LOOKUP_TABLES line, `err` everything else. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** What tests substitute: how the chain is built, how files are read, how the command waits. */
export interface LookupTableDeps {
  createChain(options: ChainOptions): Chain;
  readFile(path: string): string;
  sleep(ms: number): Promise<void>;
  /** Poll interval while waiting for the table to become usable. Default 400 ms. */
  pollMs: number;
}

const defaultDeps: LookupTableDeps = {
  createChain,
  readFile: (path) => readFileSync(path, "utf8"),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  pollMs: 400,
};

/** A failure that ends the command with exit code 1 and these lines on stderr. */
class CommandFailure extends Error {
  constructor(readonly lines: string[]) {
    super(lines[0]);
    this.name = "CommandFailure";
  }
}

/** Bytes of a lookup table's account: 56 bytes of header plus 32 per address. */
const tableBytes = (addresses: number): number => 56 + 32 * addresses;

/** Reads the authority key; the file's content never reaches an error message. */
function loadAuthority(path: string, readFile: (path: string) => string): Keypair {
  let text: string;
  try {
    text = readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read key file ${path}${code !== undefined ? ` (${code})` : ""}`);
  }
  const secret = parseSecretKeyFile(text, path);
  try {
    // Keypair keeps the array it is given: hand it a copy so the parsed buffer can be wiped.
    return Keypair.fromSecretKey(Uint8Array.from(secret));
  } catch {
    throw new UsageError(`key file ${path} does not hold a valid ed25519 keypair`);
  } finally {
    secret.fill(0);
  }
}

async function readTable(chain: Chain, table: PublicKey): Promise<AddressLookupTableAccount | null> {
  const { value } = await chain.rpc.getAccountInfo(table);
  if (value === null) return null;
  if (!value.owner.equals(AddressLookupTableProgram.programId)) {
    throw new CommandFailure([`${table.toBase58()} is not an address lookup table`]);
  }
  return new AddressLookupTableAccount({
    key: table,
    state: AddressLookupTableAccount.deserialize(value.data),
  });
}

/** Refuses before sending anything when the authority cannot pay rent plus every transaction's fee and tip. */
async function checkBalance(
  chain: Chain,
  authority: PublicKey,
  tx: { count: number; bytesBefore: number; bytesAfter: number },
): Promise<void> {
  const { maxUnitLimit, priceMicroLamports } = chain.computeBudget("create");
  const perTx =
    priorityFeeReserve({ cuPriceMicroLamports: priceMicroLamports, cuLimit: maxUnitLimit, signatures: 1n }) +
    chain.relayTip().lamports;
  const rentAfter = await chain.rpc.getMinimumBalanceForRentExemption(tx.bytesAfter);
  const rentBefore =
    tx.bytesBefore === 0 ? 0n : await chain.rpc.getMinimumBalanceForRentExemption(tx.bytesBefore);
  const needed = rentAfter - rentBefore + perTx * BigInt(tx.count);
  const { value: balance } = await chain.rpc.getBalance(authority);
  if (balance < needed) {
    throw new CommandFailure([
      `insufficient balance: authority ${authority.toBase58()} holds ${formatSol(balance)} SOL, needs about ${formatSol(needed)} SOL (${tx.count} transaction(s): rent ${formatSol(rentAfter - rentBefore)} SOL plus fees and relay tips); fund it and run again`,
    ]);
  }
}

/** Polls until the table holds every address and the cluster is past the slot it was last extended in. */
async function waitUntilActive(
  chain: Chain,
  table: PublicKey,
  needed: readonly PublicKey[],
  deps: LookupTableDeps,
  timeoutMs: number,
): Promise<void> {
  for (let waited = 0; ; waited += deps.pollMs) {
    const account = await readTable(chain, table);
    if (account !== null) {
      const held = new Set(account.state.addresses.map((a) => a.toBase58()));
      const complete = needed.every((a) => held.has(a.toBase58()));
      if (complete && (await chain.rpc.getSlot()) > account.state.lastExtendedSlot) return;
    }
    if (waited >= timeoutMs) {
      throw new CommandFailure([
        `table ${table.toBase58()} did not become usable within ${timeoutMs} ms; run again with --table ${table.toBase58()}`,
      ]);
    }
    await deps.sleep(deps.pollMs);
  }
}

/** The lines that explain a failed chain call: the upstream / simulation detail and the program logs. */
function chainFailureLines(e: unknown): string[] | undefined {
  if (e instanceof ApiError || e instanceof ChainError) {
    const lines = [e.detail];
    const sim = e.extra.simulation_error;
    if (sim !== undefined)
      lines.push(`simulation error: ${typeof sim === "string" ? sim : JSON.stringify(sim)}`);
    if (e.extra.program_error !== undefined)
      lines.push(`program error: ${JSON.stringify(e.extra.program_error)}`);
    const logs = e.extra.logs;
    if (Array.isArray(logs)) for (const l of logs) lines.push(`  ${String(l)}`);
    if (typeof e.extra.signature === "string") lines.push(`signature ${e.extra.signature}`);
    return lines;
  }
  if (isUpstreamError(e)) return [upstreamDetail(e)];
  return undefined;
}

async function run(
  chain: Chain,
  authority: Keypair,
  existing: PublicKey | undefined,
  deps: LookupTableDeps,
  io: CommandIo,
  timeoutMs: number,
): Promise<PublicKey> {
  const needed = await createLookupTableContents(chain);
  if (existing !== undefined) {
    const account = await readTable(chain, existing);
    if (account === null)
      throw new CommandFailure([`table ${existing.toBase58()} does not exist on this cluster`]);
    if (!account.isActive())
      throw new CommandFailure([`table ${existing.toBase58()} is deactivated; create a new one`]);
    const owner = account.state.authority;
    if (owner === undefined)
      throw new CommandFailure([`table ${existing.toBase58()} is frozen (no authority); create a new one`]);
    if (!owner.equals(authority.publicKey)) {
      throw new CommandFailure([
        `table ${existing.toBase58()} belongs to ${owner.toBase58()}, not to the --authority key ${authority.publicKey.toBase58()}`,
      ]);
    }
    const held = new Set(account.state.addresses.map((a) => a.toBase58()));
    const missing = needed.filter((a) => !held.has(a.toBase58()));
    const total = account.state.addresses.length + missing.length;
    if (total > LOOKUP_TABLE_CAPACITY) {
      throw new CommandFailure([
        `table ${existing.toBase58()} would need ${total} addresses (at most ${LOOKUP_TABLE_CAPACITY}); create a new one`,
      ]);
    }
    io.err(`table ${existing.toBase58()} holds ${held.size} address(es); ${missing.length} missing`);
    if (missing.length > 0) {
      const count = Math.ceil(missing.length / EXTEND_CHUNK);
      await checkBalance(chain, authority.publicKey, {
        count,
        bytesBefore: tableBytes(account.state.addresses.length),
        bytesAfter: tableBytes(total),
      });
      await extendCreateLookupTable(chain, authority, existing, missing);
    }
    await waitUntilActive(chain, existing, needed, deps, timeoutMs);
    return existing;
  }
  const count = 1 + Math.ceil(needed.length / EXTEND_CHUNK);
  await checkBalance(chain, authority.publicKey, {
    count,
    bytesBefore: 0,
    bytesAfter: tableBytes(needed.length),
  });
  const slot = await chain.rpc.getSlot();
  const table = createLookupTableAddress(authority.publicKey, slot);
  io.err(`creating table ${table.toBase58()} with ${needed.length} addresses (${count} transactions)`);
  try {
    await installCreateLookupTable(chain, authority, slot);
  } catch (e) {
    // The table may exist already with part of its addresses: say how to finish it instead of starting over.
    const created = await readTable(chain, table).catch(() => null);
    if (created !== null)
      io.err(`table ${table.toBase58()} was created; finish it with --table ${table.toBase58()}`);
    throw e;
  }
  await waitUntilActive(chain, table, needed, deps, timeoutMs);
  return table;
}

/** Runs the command for `argv` (flags only) and `env`; resolves to the process exit code. */
export async function lookupTableCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  overrides: Partial<LookupTableDeps> = {},
): Promise<number> {
  const deps = { ...defaultDeps, ...overrides };
  let chain: Chain | undefined;
  try {
    const args = parseLookupTableArgs(argv);
    const authority = loadAuthority(args.authorityPath, deps.readFile);
    const config = loadConfig(env);
    chain = deps.createChain(chainOptionsFromConfig(config));
    io.err(`authority ${authority.publicKey.toBase58()}, cluster ${config.cluster}`);
    await chain.start();
    const table = await run(chain, authority, args.table, deps, io, config.confirmTimeoutMs);
    io.err(`table ${table.toBase58()} is usable`);
    io.out(`LOOKUP_TABLES=${table.toBase58()}`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`lookup-table: ${e.message}`);
      io.err(LOOKUP_TABLE_USAGE);
      return 2;
    }
    if (e instanceof ConfigError) {
      io.err(`lookup-table: ${e.message}`);
      return 1;
    }
    const lines = e instanceof CommandFailure ? e.lines : chainFailureLines(e);
    if (lines === undefined) throw e;
    io.err(`lookup-table: ${lines[0] ?? ""}`);
    for (const l of lines.slice(1)) io.err(l);
    return 1;
  } finally {
    chain?.stop();
  }
}
