/**
 * The operator console's built files (dist/console, written by scripts/console-build.mjs), read once into
 * memory when the app is built: a request can only reach a file of this map, so no path from a URL ever
 * touches the file system (no traversal by construction).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** One servable file: its bytes, the gzip the build wrote beside it, and the headers it is sent with. */
export interface ConsoleAsset {
  body: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  /** Content-hashed name (assets/): cached for a year; the index is revalidated on every load. */
  immutable: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** Every file of `dir` with a known type, by its path relative to `dir` with `/`; undefined when not built. */
export function loadConsoleAssets(dir: string): Map<string, ConsoleAsset> | undefined {
  if (!existsSync(join(dir, "index.html"))) return undefined;
  try {
    return readAssets(dir);
  } catch {
    // Rebuilt while being read (a build replaces the directory): served as not built rather than failing start.
    return undefined;
  }
}

function readAssets(dir: string): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  for (const file of walk(dir)) {
    const type = TYPES[extname(file)];
    if (type === undefined) continue;
    const body = readFileSync(file);
    const name = relative(dir, file).split(sep).join("/");
    const gzFile = `${file}.gz`;
    assets.set(name, {
      body,
      ...(existsSync(gzFile) ? { gzip: readFileSync(gzFile) } : {}),
      type,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
      immutable: name.startsWith("assets/"),
    });
  }
  return assets;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * Where `npm run build` writes the console: dist/console under the service's package root, found from this
 * module (src/http/routes under tsx, dist/src/http/routes once compiled) whatever the working directory.
 */
export function defaultConsoleDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && isServicePackage(manifest)) return join(dir, "dist", "console");
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function isServicePackage(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "lasertrade";
  } catch {
    return false;
  }
}
