/**
 * Child processes of the harness: TypeScript entries run by `node --import tsx` (one process, so its pid
 * is the program's own and SIGKILL really kills it), output kept in a bounded tail for error messages,
 * and killed when the parent exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  type WriteStream,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (where `--import tsx` resolves and the entries live). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

let distFresh: boolean | undefined;

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Whether `dist/` was built after the last change under src/ and localnet/. `npm test` builds first, so
 * there the harness runs the compiled build: a cold tsx start transpiles the whole tree in every child
 * (measured 1.5–2× slower to its first line on a loaded 2-core machine). Editing a source file without
 * rebuilding falls back to tsx, so a single test run never exercises stale code.
 */
export function compiledBuildIsFresh(): boolean {
  if (distFresh !== undefined) return distFresh;
  const entry = join(REPO_ROOT, "dist", "main.js");
  distFresh =
    existsSync(entry) &&
    existsSync(join(REPO_ROOT, "dist", "localnet", "main.js")) &&
    newestMtimeMs(join(REPO_ROOT, "dist")) >=
      Math.max(newestMtimeMs(join(REPO_ROOT, "src")), newestMtimeMs(join(REPO_ROOT, "localnet")));
  return distFresh;
}

/**
 * The environment and node flags of `npm start` (package.json: `[NAME=value …] node <flags> dist/main.js`), so the
 * harness runs the compiled service exactly as production does (its heap flags, its allocator settings such as
 * MALLOC_ARENA_MAX, and its source-map set-up are part of what the bench measures).
 */
export function startScript(): { env: Record<string, string>; flags: string[] } {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const m = /^((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)node\s+(.*?)\s*dist\/main\.js$/.exec(pkg.scripts.start);
  if (m === null)
    throw new Error(
      `package.json start is not "[NAME=value …] node <flags> dist/main.js": ${pkg.scripts.start}`,
    );
  const env: Record<string, string> = {};
  for (const assignment of m[1]!.split(/\s+/).filter((a) => a !== "")) {
    const eq = assignment.indexOf("=");
    env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  return { env, flags: m[2]!.split(/\s+/).filter((f) => f !== "") };
}

/** Parent variables a child inherits; everything else (DATABASE_URL, PORT, …) must be given explicitly. */
const INHERITED = ["PATH", "HOME", "TMPDIR", "TEMP", "TMP", "LANG", "TZ", "SYSTEMROOT"];

/** A running child process. */
export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the process has exited. */
  hasExited(): boolean;
  /** The last few KB of stdout + stderr, for error messages. */
  outputTail(): string;
  /** Sends `signal`; resolves on exit, sending SIGKILL after `graceMs` if it is still running. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

/** Options of `spawnTs`. */
export interface SpawnTsOptions {
  /** Environment on top of the inherited basics (PATH, HOME, …). */
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Also write the child's stdout and stderr to this file. */
  logFile?: string;
  /** Called with each complete stdout line. */
  onStdoutLine?: (line: string) => void;
  /** Run `entry` as compiled JavaScript with plain node (no tsx loader), source maps on. */
  compiled?: boolean;
  /** Node flags of a compiled run (default `--enable-source-maps`); the service passes those of `npm start`. */
  compiledFlags?: string[];
}

const TAIL_BYTES = 16 * 1024;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const c of live) c.kill("SIGKILL");
  });
}

/** Runs `node --import tsx <entry> …args` from the repository root. `entry` is relative to the root. */
export function spawnTs(entry: string, args: string[], options: SpawnTsOptions = {}): Child {
  killAllOnExit();
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, options.env);
  // A `--name=value` flag of the caller's replaces `npm start`'s flag of that name (so a bench can A/B the start
  // flags, e.g. --max-semi-space-size, without editing package.json).
  const own = new Set((options.nodeArgs ?? []).map((a) => a.split("=")[0]));
  const loader =
    options.compiled === true
      ? (options.compiledFlags ?? ["--enable-source-maps"]).filter(
          (f) => !f.includes("=") || !own.has(f.split("=")[0]),
        )
      : ["--import", "tsx"];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, entry, ...args], {
    cwd: REPO_ROOT,
    env,
    // stdin stays an open pipe: the child's entries stop when it closes (the parent is gone).
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start ${entry}`);
  live.add(child);
  let tail = "";
  let exited = false;
  const log: WriteStream | null = options.logFile ? createWriteStream(options.logFile, { flags: "a" }) : null;
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-TAIL_BYTES);
    log?.write(chunk);
  };
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    keep(chunk);
    if (options.onStdoutLine === undefined) return;
    partial += chunk.toString("utf8");
    const lines = partial.split("\n");
    partial = lines.pop()!;
    for (const l of lines) options.onStdoutLine(l);
  });
  child.stderr!.on("data", keep);
  child.stdin!.on("error", () => {}); // EPIPE after the child died
  const exitedPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      exited = true;
      live.delete(child);
      log?.end();
      resolve({ code, signal });
    });
  });
  return {
    pid: child.pid,
    process: child,
    exited: exitedPromise,
    hasExited: () => exited,
    outputTail: () => tail,
    async stop(signal = "SIGTERM", graceMs = 10_000) {
      if (exited) return;
      child.kill(signal);
      if (signal === "SIGKILL") {
        await exitedPromise;
        return;
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}
