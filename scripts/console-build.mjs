// Builds the operator console (console/src) into dist/console: one content-hashed script and stylesheet under
// assets/, the index.html that names them, and a gzip of each file beside it (served when the browser accepts
// gzip). Run by `npm run build` (so by `npm install`'s prepare step).
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = join(root, "dist", "console");

/** Builds the console into `outDir` and returns the file sizes (raw and gzip, bytes) by name. */
export async function buildConsole(outDir = out) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "assets"), { recursive: true });
  const result = await build({
    entryPoints: { app: join(root, "console", "src", "main.tsx") },
    bundle: true,
    minify: true,
    format: "esm",
    target: ["es2022"],
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    outdir: join(outDir, "assets"),
    metafile: true,
    legalComments: "eof",
    logLevel: "warning",
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const script = outputs.find((f) => f.endsWith(".js"));
  const style = outputs.find((f) => f.endsWith(".css"));
  if (script === undefined || style === undefined) throw new Error("console build: no script or stylesheet");
  const html = readFileSync(join(root, "console", "index.html"), "utf8")
    .replace("%SCRIPT%", `/console/assets/${script}`)
    .replace("%STYLE%", `/console/assets/${style}`);
  writeFileSync(join(outDir, "index.html"), html);
  writeFileSync(join(outDir, "favicon.svg"), readFileSync(join(root, "console", "favicon.svg")));
  const sizes = {};
  for (const name of ["index.html", "favicon.svg", `assets/${script}`, `assets/${style}`]) {
    const body = readFileSync(join(outDir, name));
    const gz = gzipSync(body, { level: 9 });
    writeFileSync(join(outDir, `${name}.gz`), gz);
    sizes[name] = { raw: body.length, gzip: gz.length };
  }
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `--out <dir>` builds elsewhere (the browser tests: never the dist/console other processes are serving).
  const at = process.argv.indexOf("--out");
  const sizes = await buildConsole(at > 0 ? process.argv[at + 1] : out);
  const total = Object.values(sizes).reduce((a, s) => a + s.gzip, 0);
  console.log(
    `console built: ${at > 0 ? process.argv[at + 1] : "dist/console"} (${(total / 1024).toFixed(1)} KiB gzip in all)`,
  );
}
