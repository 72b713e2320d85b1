/**
 * `npm run lookup-table` against the localnet: it creates the create table the service needs, prints one
 * pasteable LOOKUP_TABLES line, tops up an existing table idempotently, refuses clearly (usage, key file,
 * balance, foreign table), and the printed table makes a create with its first buy fit and land.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bs58 from "bs58";
import { AddressLookupTableAccount, AddressLookupTableProgram, Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalnet } from "../../../localnet/index.js";
import type { LocalnetHandle } from "../../../localnet/api.js";
import { createChain, type Chain } from "../../../src/chain/chain.js";
import { localnetChainOptions } from "../../../src/chain/localnet-options.js";
import { lookupTableCommand, type LookupTableDeps } from "../../../src/cli/lookup-table-command.js";
import { createLookupTableContents } from "../../../src/domain/create/lookup-table.js";
import { curveConfigs } from "../../../src/domain/trade/configs.js";
import { buildCreateV2AndBuyExactSolIn } from "../../../src/launch/create-instructions.js";
import { buildTestApp, TEST_MASTER_KEY_HEX } from "../../helpers/app.js";

const SOL = 1_000_000_000n;
const URI = `https://ipfs.io/ipfs/${"Q".repeat(46)}/metadata-with-a-realistic-name.json`;

let localnet: LocalnetHandle;
let dir: string;
let env: NodeJS.ProcessEnv;
/** Every line any run printed, to show no key material ever reaches the output. */
const printed: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 50 });
  dir = mkdtempSync(join(tmpdir(), "lookup-table-"));
  env = {
    CLUSTER: "custom",
    MASTER_KEY: TEST_MASTER_KEY_HEX,
    RPC_URL: localnet.rpcUrl,
    RELAY_URL: localnet.relayUrl,
    BUNDLE_RELAY_URL: localnet.bundleRelayUrl,
    RELAY_TIP_ACCOUNTS: localnet.relayTipAccounts.join(","),
    BUNDLE_TIP_ACCOUNTS: localnet.bundleTipAccounts.join(","),
    RELAY_TIP_LAMPORTS: String(localnet.relayTipLamports),
    CONFIRM_TIMEOUT_MS: "5000",
  };
});
afterAll(async () => {
  await localnet?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => localnet.admin.resetStats());

let fileCounter = 0;
/** A funded (or not) authority whose key file is in `format`. */
function authority(lamports: bigint, format: "json" | "base58" = "json"): { kp: Keypair; path: string } {
  const kp = Keypair.generate();
  if (lamports > 0n) localnet.admin.fund(kp.publicKey.toBase58(), lamports);
  const path = join(dir, `authority-${++fileCounter}.json`);
  const b58 = bs58.encode(kp.secretKey);
  secrets.push(b58, JSON.stringify(Array.from(kp.secretKey)));
  writeFileSync(path, format === "json" ? JSON.stringify(Array.from(kp.secretKey)) : `${b58}\n`);
  return { kp, path };
}

async function run(
  argv: string[],
  extraEnv: NodeJS.ProcessEnv = {},
  deps: Partial<LookupTableDeps> = {},
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await lookupTableCommand(
    argv,
    { ...env, ...extraEnv },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    { pollMs: 50, ...deps },
  );
  printed.push(...out, ...err);
  return { code, out, err };
}

/** The address of the one `LOOKUP_TABLES=<address>` line. */
function tableOf(out: string[]): PublicKey {
  expect(out).toHaveLength(1);
  const m = /^LOOKUP_TABLES=([1-9A-HJ-NP-Za-km-z]{32,44})$/.exec(out[0] ?? "");
  expect(m).not.toBeNull();
  return new PublicKey(m![1]!);
}

async function readTable(chain: Chain, table: PublicKey): Promise<AddressLookupTableAccount> {
  const { value } = await chain.rpc.getAccountInfo(table);
  if (value === null) throw new Error("table missing");
  return new AddressLookupTableAccount({
    key: table,
    state: AddressLookupTableAccount.deserialize(value.data),
  });
}

async function startedChain(lookupTables: string[] = []): Promise<Chain> {
  const chain = createChain(localnetChainOptions(localnet, { lookupTables, cacheRefreshMs: 600_000 }));
  await chain.start();
  return chain;
}

const sends = () => localnet.admin.stats()["relay.sendTransaction"] ?? 0;

describe("npm run lookup-table", () => {
  let table: PublicKey;
  let owner: { kp: Keypair; path: string };

  it("creates the table with every address the service needs and prints one LOOKUP_TABLES line", async () => {
    owner = authority(SOL);
    const r = await run(["--authority", owner.path]);
    expect(r.err.join("\n")).not.toMatch(/lookup-table:/);
    expect(r.code).toBe(0);
    table = tableOf(r.out);
    const chain = await startedChain();
    try {
      const account = await readTable(chain, table);
      expect(account.state.authority?.equals(owner.kp.publicKey)).toBe(true);
      const held = account.state.addresses.map((a) => a.toBase58());
      const needed = (await createLookupTableContents(chain)).map((a) => a.toBase58());
      expect(held).toEqual(needed);
      // Usable: the cluster is past the slot of the last extension.
      expect(await chain.rpc.getSlot()).toBeGreaterThan(account.state.lastExtendedSlot);
    } finally {
      chain.stop();
    }
  });

  it("with the printed table, a create with its first buy fits 1232 bytes and lands (without it, it does not fit)", async () => {
    const chain = await startedChain([table.toBase58()]);
    try {
      const creator = Keypair.generate();
      localnet.admin.fund(creator.publicKey.toBase58(), 2n * SOL);
      const mint = Keypair.generate();
      const instructions = await buildCreateV2AndBuyExactSolIn({
        mint: mint.publicKey,
        name: "Lookup Table Coin",
        symbol: "LTC",
        uri: URI,
        creator: creator.publicKey,
        mayhem: false,
        cashback: false,
        global: curveConfigs(chain.caches).global,
        spendableLamports: 100_000_000n,
        minTokensOut: 1n,
      });
      const input = { kind: "create" as const, payer: creator, extraSigners: [mint], instructions };
      expect(() => chain.assemble({ ...input, version: "legacy" })).toThrow(/over the 1232-byte limit/);
      const tx = chain.assemble(input);
      expect(tx.wire.length).toBeLessThanOrEqual(1232);
      const landed = await chain.submit(tx, {
        simulate: true,
        confirm: true,
        simulationFailedDetail: "create",
      });
      expect(landed.confirmed).toBe(true);
      const { value } = await chain.rpc.getAccountInfo(mint.publicKey);
      expect(value).not.toBeNull();
    } finally {
      chain.stop();
    }
  });

  it("lands POST /v1/laser/create with an initial buy through the app configured with the printed table", async () => {
    const chain = await startedChain([table.toBase58()]);
    const t = await buildTestApp({ chain });
    try {
      const { apiKey, wallet } = await t.setup();
      localnet.admin.fund(wallet, 2n * SOL);
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/laser/create",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        payload: JSON.stringify({ name: "Dev", symbol: "DEV", metadataUri: URI, initialBuy: "0.1" }),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ confirmed: boolean }>().confirmed).toBe(true);
    } finally {
      chain.stop();
      await t.close();
    }
  });

  it("with --table on a complete table sends nothing and prints the same line", async () => {
    const r = await run(["--authority", owner.path, `--table=${table.toBase58()}`]);
    expect(r.code).toBe(0);
    expect(tableOf(r.out).equals(table)).toBe(true);
    expect(r.err).toContain(`table ${table.toBase58()} holds ${await countOf(table)} address(es); 0 missing`);
    expect(sends()).toBe(0);
  });

  it("with --table on an empty table of the authority extends it with every missing address", async () => {
    const a = authority(SOL, "base58");
    const chain = await startedChain();
    let empty: PublicKey;
    try {
      const slot = await chain.rpc.getSlot();
      const [ix, address] = AddressLookupTableProgram.createLookupTable({
        authority: a.kp.publicKey,
        payer: a.kp.publicKey,
        recentSlot: slot,
      });
      empty = address;
      const tx = chain.assemble({ kind: "create", payer: a.kp, instructions: [ix], version: "legacy" });
      await chain.submit(tx, { simulate: true, confirm: true, simulationFailedDetail: "create table" });
      localnet.admin.resetStats();
      const r = await run(["--authority", a.path, "--table", empty.toBase58()]);
      expect(r.code).toBe(0);
      expect(tableOf(r.out).equals(empty)).toBe(true);
      const needed = (await createLookupTableContents(chain)).map((k) => k.toBase58());
      expect(r.err).toContain(`table ${empty.toBase58()} holds 0 address(es); ${needed.length} missing`);
      expect((await readTable(chain, empty)).state.addresses.map((k) => k.toBase58())).toEqual(needed);
      expect(sends()).toBe(Math.ceil(needed.length / 20));
    } finally {
      chain.stop();
    }
  });

  it("refuses a table of another authority (exit 1, nothing sent)", async () => {
    const other = authority(SOL);
    const r = await run(["--authority", other.path, "--table", table.toBase58()]);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err.at(-1)).toBe(
      `lookup-table: table ${table.toBase58()} belongs to ${owner.kp.publicKey.toBase58()}, not to the --authority key ${other.kp.publicKey.toBase58()}`,
    );
    expect(sends()).toBe(0);
  });

  it("refuses an unfunded authority with its balance and what it needs (exit 1, nothing sent)", async () => {
    const poor = authority(1_000_000n);
    const r = await run(["--authority", poor.path]);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err.at(-1)).toMatch(
      new RegExp(
        `^lookup-table: insufficient balance: authority ${poor.kp.publicKey.toBase58()} holds 0\\.001000000 SOL, needs about 0\\.\\d+ SOL \\(6 transaction\\(s\\)`,
      ),
    );
    expect(sends()).toBe(0);
  });

  it("prints the RPC detail when the cluster cannot be reached (exit 1)", async () => {
    const a = authority(SOL);
    // Every read retry as the service makes it, without the jittered pauses between them (about 3.5 s).
    const r = await run(
      ["--authority", a.path],
      { RPC_URL: `http://127.0.0.1:${await closedPort()}` },
      { createChain: (o) => createChain({ ...o, random: () => 0 }) },
    );
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err.at(-1)).toMatch(/^lookup-table: getLatestBlockhash: .*ECONNREFUSED/);
  });

  it("exits 2 on a missing or unknown flag, an unreadable or malformed key file", async () => {
    const missing = await run([]);
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toBe("lookup-table: --authority <key file> is required");
    expect((await run(["--authority"])).code).toBe(2);
    expect((await run(["--authority", "x", "--bogus"])).err[0]).toBe(
      'lookup-table: unknown argument "--bogus"',
    );
    const absent = join(dir, "absent.json");
    const unreadable = await run(["--authority", absent]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.err[0]).toBe(`lookup-table: cannot read key file ${absent} (ENOENT)`);
    const short = join(dir, "short.json");
    writeFileSync(short, JSON.stringify(Array.from(Keypair.generate().secretKey.slice(0, 32))));
    const shortRun = await run(["--authority", short]);
    expect(shortRun.code).toBe(2);
    expect(shortRun.err[0]).toMatch(/^lookup-table: key file .* does not hold 64 numbers/);
    for (const r of [missing, unreadable, shortRun]) expect(r.out).toEqual([]);
  });

  it("exits 1 on bad configuration, naming the variable", async () => {
    const a = authority(0n);
    const r = await run(["--authority", a.path], { RPC_URL: "", CLUSTER: "mainnet" });
    expect(r.code).toBe(1);
    expect(r.err).toEqual(["lookup-table: invalid configuration: RPC_URL is required when CLUSTER=mainnet"]);
  });

  it("never prints key material", () => {
    const all = printed.join("\n");
    for (const s of secrets) expect(all).not.toContain(s);
    expect(printed.length).toBeGreaterThan(10);
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function countOf(table: PublicKey): Promise<number> {
  const chain = createChain(localnetChainOptions(localnet));
  return (await readTable(chain, table)).state.addresses.length;
}
