/**
 * Issue 22 item 7: the README's code blocks marked `<!-- run -->` run as written against a sandbox (the app
 * and its localnet in-process, on real ports). The only change made to a block is the address: the README's
 * http://localhost:8080 (service) and http://127.0.0.1:8899 (localnet) become the ports this test listens on.
 * Shell blocks run in order in one bash session (variables carry from block to block, as in a terminal), with
 * curl failing on any HTTP error; the TypeScript block is type-checked, then run with tsx as its own module.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { E2e } from "../../helpers/e2e.js";
import { startListeningE2e } from "../../helpers/sandbox-e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const README = readFileSync(`${root}README.md`, "utf8");
const SERVICE = "http://localhost:8080";
const LOCALNET = "http://127.0.0.1:8899";

interface Block {
  lang: string;
  code: string;
  line: number;
}

/** The fenced blocks preceded by an `<!-- run … -->` comment line. */
export function runnableBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const re = /^<!-- run\b[^>]*-->\n```(\w+)\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(re)) {
    blocks.push({ lang: m[1]!, code: m[2]!, line: markdown.slice(0, m.index).split("\n").length + 1 });
  }
  return blocks;
}

function exec(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, maxBuffer: 8 << 20 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let e2e: E2e;
let baseUrl = "";
let close = async (): Promise<void> => {};
const at = (code: string) => code.replaceAll(SERVICE, baseUrl).replaceAll(LOCALNET, e2e.localnet.rpcUrl);

beforeAll(async () => {
  // The curl walk-through and the code sample each call setup from 127.0.0.1 within seconds: the one-per-5-s
  // limit would be a timing dependency here (it has its own tests).
  ({ e2e, baseUrl, close } = await startListeningE2e({ rateLimiter: { hit: () => Promise.resolve(true) } }));
}, 120_000);
afterAll(() => close());

describe("README code blocks run as written (issue 22)", () => {
  const blocks = runnableBlocks(README);

  it("marks the From-code sample and the curl walk-throughs", () => {
    expect(blocks.filter((b) => b.lang === "ts")).toHaveLength(1);
    expect(blocks.filter((b) => b.lang === "sh").length).toBeGreaterThanOrEqual(5);
    // Only the two sandbox addresses are rewritten: a block naming another local address would not run here.
    for (const b of blocks)
      for (const url of b.code.match(/https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?/g) ?? [])
        expect([SERVICE, LOCALNET], `README line ${b.line}`).toContain(url);
  });

  it("the shell blocks: setup, wallets (create, default, delink), funding, a token, buy, sell, history, an idempotent buy", async () => {
    const sh = blocks.filter((b) => b.lang === "sh");
    const script = [
      "set -euo pipefail",
      // An HTTP error answer fails the block (curl -s alone exits 0 on a 4xx).
      'curl() { command curl --fail-with-body "$@"; echo; }',
      ...sh.map((b, i) => `${at(b.code)}\necho "::block ${i} (README line ${b.line}) ok"`),
    ].join("\n");
    const r = await exec("bash", ["-c", script]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    sh.forEach((b, i) => expect(r.stdout).toContain(`::block ${i} (README line ${b.line}) ok`));
    // The buy landed and the sell found its tokens; the history lists them.
    expect(r.stdout).toMatch(/"action":"buy".*"confirmed":true/);
    expect(r.stdout).toMatch(/"action":"sell".*"confirmed":true/);
    expect(r.stdout).toMatch(/"executions":\[\{"id"/);
    expect(r.stdout).toContain(`{"ok":true}`);
  }, 120_000);

  it("the From-code TypeScript sample type-checks and runs: it funds its wallet, buys and sells", async () => {
    const ts = blocks.find((b) => b.lang === "ts")!;
    // Under node_modules so that `@lasertrade/client` resolves as it does in a user's project.
    const dir = `${root}node_modules/.cache/readme-test`;
    mkdirSync(dir, { recursive: true });
    const file = `${dir}/from-code-${process.pid}.mts`;
    writeFileSync(file, at(ts.code));
    onTestFinished(() => rmSync(file, { force: true }));

    const check = await exec(`${root}node_modules/.bin/tsc`, [
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--target",
      "es2022",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--types",
      "node",
      file,
    ]);
    expect(check.code, `${check.stdout}\n${check.stderr}`).toBe(0);

    const run = await exec(process.execPath, ["--import", "tsx", file]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lines = run.stdout.trim().split("\n");
    // Nothing was caught: the buy printed its bigint amount and the tokens it received, the sell its SOL.
    expect(lines[0]).toMatch(/^50000000n [1-9]\d*$/);
    expect(lines[1]).toMatch(/^\w{64,90} [1-9]\d*$/);
    expect(lines[2]).toMatch(/^key lt_/);
  }, 120_000);
});
