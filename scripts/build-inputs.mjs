// What `npm run build` reads, and a hash of it: `npm test` builds only when the hash differs from the one the
// last successful build wrote (dist/.build-inputs), so a fresh `npm ci` (whose prepare step built) is not built
// again by the test command (about 35-60 s of CI). Contents, not mtimes: a checkout, a branch switch or a
// deleted file changes the hash.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const STAMP = join(root, "dist", ".build-inputs");
const INPUTS = [
  "src",
  "localnet",
  "console",
  "packages/client/src",
  "packages/client/package.json",
  "packages/client/tsconfig.json",
  "packages/cli/src",
  "packages/cli/package.json",
  "packages/cli/tsconfig.json",
  "scripts/dist-entry.mjs",
  "scripts/console-build.mjs",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
];
// The build's outputs: a missing one means a build whatever the hash says.
const OUTPUTS = ["dist/main.js", "dist/console/index.html", "packages/client/dist", "packages/cli/dist"];

/** Every file under `path` (or `path` itself), sorted. */
function filesOf(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .map((f) => relative(root, join(full, f)))
    .filter((f) => !f.includes("node_modules") && statSync(join(root, f)).isFile())
    .sort();
}

/** The hash of every input file's path and contents. */
export function inputsHash() {
  const h = createHash("sha256");
  for (const f of INPUTS.flatMap(filesOf))
    h.update(f)
      .update("\0")
      .update(readFileSync(join(root, f)));
  return h.digest("hex");
}

/** True when the outputs exist and were built from the inputs as they are now. */
export function buildIsCurrent() {
  if (!OUTPUTS.every((o) => existsSync(join(root, o)))) return false;
  return existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === inputsHash();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2];
  if (cmd === "write") writeFileSync(STAMP, `${inputsHash()}\n`);
  else if (cmd === "check") process.exit(buildIsCurrent() ? 0 : 1);
  else {
    console.error("usage: build-inputs.mjs write|check");
    process.exit(2);
  }
}
