/**
 * `npx tsx bench/http-client-micro.ts [--a DIR] [--b DIR] [--concurrency 64] [--calls 6000] [--rounds 4]`:
 * CPU per relay-style JSON-RPC call (`createJsonRpcTransport` over `createHttpFetch`, a 600-byte wire sent as
 * `sendTransaction`) of the compiled HTTP client of two checkouts (DIR/dist; default both this one, e.g.
 * `--b ../main` for a second worktree at main, built), against a relay-like server in another process so only
 * the client's CPU is counted (`process.cpuUsage`). Warm loops; A and B alternate each round. Issue 18.
 */
import { fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { numberFlag, optionalFlag } from "./flags.js";
import { spinMs } from "./machine-speed.js";

type Call = () => Promise<unknown>;

/** The relay stand-in: answers every POST with a JSON-RPC signature result (run with `--server`). */
function serve(): void {
  const sig = "5".repeat(88);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const id = /"id":(\d+)/.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "0";
      const out = `{"jsonrpc":"2.0","id":${id},"result":"${sig}"}`;
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.listen(0, "127.0.0.1", () => process.send?.((server.address() as AddressInfo).port));
}

/** A relay send through DIR's compiled transport and default HTTP client. */
async function clientOf(dir: string, url: string): Promise<Call> {
  const mod = (file: string) => import(pathToFileURL(join(dir, "dist", "src", "chain", file)).href);
  const { createHttpFetch } = await mod("http-fetch.js");
  const { createJsonRpcTransport } = await mod("json-rpc.js");
  const transport = createJsonRpcTransport({
    url,
    timeoutMs: 5_000,
    fetch: createHttpFetch({ retryUnanswered: true }),
  });
  const wire = Buffer.alloc(600, 7);
  return () =>
    transport.call("sendTransaction", [
      wire.toString("base64"),
      { encoding: "base64", skipPreflight: true, maxRetries: 0 },
    ]);
}

/** CPU µs and wall ms per call over `calls` calls, `concurrency` in flight. */
async function run(call: Call, calls: number, concurrency: number) {
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started++ < calls) await call();
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: (cpu.user + cpu.system) / calls, wallMs: (performance.now() - t0) / calls };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dirFlag = (name: string) => resolve(optionalFlag(argv, name) ?? join(import.meta.dirname, ".."));
  const concurrency = numberFlag(argv, "concurrency", 64);
  const calls = numberFlag(argv, "calls", 6_000);
  const rounds = numberFlag(argv, "rounds", 4);
  const child = fork(import.meta.filename, ["--server"], { execArgv: process.execArgv });
  const port = await new Promise<number>((r) => child.once("message", (m) => r(m as number)));
  try {
    const url = `http://127.0.0.1:${port}/relay`;
    const builds = { A: dirFlag("a"), B: dirFlag("b") };
    const calls_ = { A: await clientOf(builds.A, url), B: await clientOf(builds.B, url) };
    for (const k of ["A", "B"] as const) await run(calls_[k], calls, concurrency); // warm-up (JIT)
    process.stdout.write(`A ${builds.A}\nB ${builds.B}\nconcurrency ${concurrency}, spin ${spinMs()} ms\n`);
    for (let r = 0; r < rounds; r++) {
      const row: string[] = [];
      const order: ("A" | "B")[] = r % 2 === 0 ? ["A", "B"] : ["B", "A"];
      for (const k of order) {
        const m = await run(calls_[k], calls, concurrency);
        row.push(`${k} ${m.cpuUs.toFixed(1)} µs cpu, ${m.wallMs.toFixed(3)} ms wall`);
      }
      process.stdout.write(`round ${r + 1}: ${row.join(" | ")}\n`);
    }
    process.stdout.write(`spin ${spinMs()} ms\n`);
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--server")) serve();
else await main();
