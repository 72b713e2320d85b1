/**
 * `npx tsx bench/alloc-micro.ts [--root DIR] [--case NAME]`: allocation (bytes per call, V8's sampling heap
 * profiler with garbage included) and CPU (µs per call) of the request path's pieces that issue 18's
 * allocation pass changed, run against the sources under DIR (default: this checkout), so two checkouts
 * (e.g. `main` in a second worktree) are compared with the same script. Cases that compare two implementations
 * living side by side (base58) print both.
 */
import { Session } from "node:inspector/promises";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Keypair, PublicKey, TransactionInstruction, AddressLookupTableAccount } from "@solana/web3.js";
import bs58 from "bs58";
import { optionalFlag } from "./flags.js";

const argv = process.argv.slice(2);
const root = resolve(optionalFlag(argv, "root") ?? join(import.meta.dirname, ".."));
const only = optionalFlag(argv, "case");
const session = new Session();
session.connect();

type Fn = () => unknown;

/** Bytes allocated per call (sampled, garbage included) and CPU µs per call. */
async function measure(name: string, fn: Fn, n: number): Promise<void> {
  const run = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i++) {
      const r = fn();
      if (r instanceof Promise) await r;
    }
  };
  await run(n); // warm-up (JIT)
  const cpu0 = process.cpuUsage();
  await run(n);
  const cpu = process.cpuUsage(cpu0);
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 128,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run(n);
  const { profile } = await session.post("HeapProfiler.stopSampling");
  type Node = { selfSize: number; children: Node[] };
  const total = (node: Node): number => node.children.reduce((s, c) => s + total(c), node.selfSize);
  const bytes = total(profile.head as Node) / n;
  if (argv.includes("--detail")) {
    // Self bytes per call by function, largest first.
    type Framed = Node & { callFrame: { functionName: string; url: string; lineNumber: number } };
    const by = new Map<string, number>();
    const walk = (node: Framed): void => {
      const f = node.callFrame;
      const k = `${f.functionName || "(anonymous)"} ${f.url.replace(/.*node_modules\//, "").replace(root, "")}:${f.lineNumber + 1}`;
      by.set(k, (by.get(k) ?? 0) + node.selfSize);
      for (const c of node.children) walk(c as Framed);
    };
    walk(profile.head as Framed);
    for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 15))
      process.stdout.write(`    ${(v / n).toFixed(0).padStart(6)} ${k}\n`);
  }
  const us = ((cpu.user + cpu.system) / n).toFixed(2);
  process.stdout.write(
    `${name.padEnd(28)} ${bytes.toFixed(0).padStart(7)} B/call ${us.padStart(8)} µs/call\n`,
  );
}

const src = (path: string): Promise<Record<string, unknown>> => import(join(root, "src", path));

const cases: Record<string, () => Promise<void>> = {
  async spread() {
    // A row mapper's shape (toWallet): a literal opening with a spread and going on with properties, against
    // core/extend.ts's Object.assign and the properties written out.
    const ids = (r: { id: number }) => ({ id: r.id, apiKeyId: r.id + 1 });
    const row = { id: 1, a: "a", b: "b", c: 3 };
    await measure(
      "spread first, 9 more",
      () => ({ ...ids(row), p1: row.a, p2: row.b, p3: row.c, p4: 1, p5: 2, p6: 3, p7: 4, p8: 5, p9: 6 }),
      20_000,
    );
    const { extend } = (await import(join(import.meta.dirname, "../src/core/extend.js"))) as {
      extend: (b: object, e: object) => object;
    };
    await measure(
      "extend, 9 more",
      () => extend(ids(row), { p1: row.a, p2: row.b, p3: row.c, p4: 1, p5: 2, p6: 3, p7: 4, p8: 5, p9: 6 }),
      20_000,
    );
    await measure(
      "written out",
      () => {
        const { id, apiKeyId } = ids(row);
        return { id, apiKeyId, p1: row.a, p2: row.b, p3: row.c, p4: 1, p5: 2, p6: 3, p7: 4, p8: 5, p9: 6 };
      },
      20_000,
    );
  },

  async base58() {
    const sig = Keypair.generate().secretKey; // 64 bytes, like a signature
    await measure("base58 bs58.encode", () => bs58.encode(sig), 50_000);
    const mod = (await import(join(import.meta.dirname, "../src/core/base58.js"))) as {
      encodeBase58: (b: Uint8Array) => string;
    };
    await measure("base58 encodeBase58", () => mod.encodeBase58(sig), 50_000);
  },

  async compile() {
    const { compileMessage } = (await src("chain/message-compile.js")) as {
      compileMessage: (i: unknown) => unknown;
    };
    // The shape of a curve buy: budget (2), ATA create (6 keys), the buy (16 keys), a tip transfer; a v0
    // message with a lookup table holding the venue's shared accounts. Shared keys are the same instances
    // from one call to the next (memoized), as on the warm trade path.
    const keys = Array.from({ length: 24 }, () => Keypair.generate().publicKey);
    const payer = keys[0]!;
    const ix = (program: PublicKey, ks: [PublicKey, boolean, boolean][], data: number) =>
      new TransactionInstruction({
        programId: program,
        keys: ks.map(([pubkey, isSigner, isWritable]) => ({ pubkey, isSigner, isWritable })),
        data: Buffer.alloc(data, 7),
      });
    const budget = keys[1]!;
    const system = keys[2]!;
    const instructions = [
      ix(budget, [], 5),
      ix(budget, [], 9),
      ix(
        keys[3]!,
        [
          [payer, true, true],
          [keys[4]!, false, true],
          [payer, false, false],
          [keys[5]!, false, false],
          [system, false, false],
          [keys[6]!, false, false],
        ],
        1,
      ),
      ix(
        keys[7]!,
        keys
          .slice(4, 20)
          .map((k, i) => [i === 0 ? payer : k, i === 0, i < 6] as [PublicKey, boolean, boolean]),
        24,
      ),
      ix(
        system,
        [
          [payer, true, true],
          [keys[21]!, false, true],
        ],
        12,
      ),
    ];
    const table = new AddressLookupTableAccount({
      key: keys[22]!,
      state: {
        deactivationSlot: BigInt("18446744073709551615"),
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: keys.slice(8, 20),
      },
    });
    await measure(
      "compileMessage (curve buy)",
      () =>
        compileMessage({
          payer,
          instructions,
          blockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N",
          version: "v0",
          lookupTables: [table],
          keepStatic: keys.slice(20, 22),
        }),
      20_000,
    );
  },

  async fanout() {
    const { createFanOutRelay } = (await src("chain/relay-fanout.js")) as {
      createFanOutRelay: (
        r: unknown[],
        o: unknown,
      ) => { sendTransaction: (w: Uint8Array) => Promise<string> };
    };
    const relay = createFanOutRelay(
      [{ name: "a", client: { sendTransaction: () => Promise.resolve("sig") } }],
      {
        accepted() {},
        failed() {},
      },
    );
    const wire = new Uint8Array(600);
    await measure("fan-out, one relay", () => relay.sendTransaction(wire), 50_000);
  },

  async rpc() {
    // The relay client's send over its keep-alive client, to a server in another process (its allocations are
    // not this process's).
    const server = spawn(
      process.execPath,
      [
        "-e",
        `require("node:http").createServer((q, s) => { q.resume(); q.on("end", () => s.end('{"jsonrpc":"2.0","id":1,"result":"sig"}')); })` +
          `.listen(0, "127.0.0.1", function () { console.log(this.address().port); });`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const [line] = (await once(server.stdout!, "data")) as [Buffer];
    const url = `http://127.0.0.1:${line.toString().trim()}`;
    try {
      const { createRelayClient } = (await src("chain/relay-client.js")) as {
        createRelayClient: (o: unknown) => { sendTransaction: (w: Uint8Array) => Promise<string> };
      };
      const relay = createRelayClient({ url, timeoutMs: 5_000 });
      const wire = new Uint8Array(900).fill(3);
      await measure("relay send (node:http)", () => relay.sendTransaction(wire), 3_000);
    } finally {
      server.kill();
    }
  },

  async store() {
    const { openStore } = (await src("store/open-store.js")) as {
      openStore: (u: string, d: string) => Promise<Record<string, (...a: unknown[]) => Promise<unknown>>>;
    };
    const store = await openStore("sqlite::memory:", mkdtempSync(join(tmpdir(), "lt-alloc-")));
    const wallet = {
      publicKey: Keypair.generate().publicKey.toBase58(),
      createdAt: new Date().toISOString(),
      ciphertext: Buffer.alloc(64, 1).toString("base64"),
      nonce: Buffer.alloc(12, 2).toString("base64"),
      tag: Buffer.alloc(16, 3).toString("base64"),
      keyId: "k1",
    };
    const { apiKey } = (await store.createApiKeyWithWallet!("hash", wallet)) as { apiKey: { id: number } };
    await measure("store.findWallet (sqlite)", () => store.findWallet!(apiKey.id, wallet.publicKey), 20_000);
  },

  async executionJson() {
    const { insertParams } = (await src("store/execution-statements.js")) as {
      insertParams: (e: unknown, now: string) => unknown[];
    };
    const e = {
      id: "0b0c7f3e-1d6c-4c53-9d49-6f0d1d9a4a11",
      apiKeyId: 1,
      kind: "trade",
      wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
      wallets: ["9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"],
      signatures: [
        "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
      ],
      bundleId: null,
      status: "pending",
      confirmationStatus: null,
      request: {
        action: "buy",
        amount: "0.001",
        mint: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        simulate: false,
        confirm: false,
      },
      response: null,
      error: null,
      timings: { wallet: 0.1, amount: 0.02, build: 0.3 },
      lastValidBlockHeight: 123,
      idempotencyKey: null,
      computeUnitPriceMicroLamports: 1000n,
    };
    await measure("insertParams (JSON columns)", () => insertParams(e, "2026-11-26 11:00:00"), 50_000);
  },
};

for (const [name, run] of Object.entries(cases)) if (only === undefined || only === name) await run();
session.disconnect();
