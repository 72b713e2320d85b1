/**
 * The browser of the console tests: Debian's chromium (or CHROMIUM_PATH) driven by playwright-core. Where no
 * chromium is installed the tests skip with a message saying so; on CI (CI set) a missing browser fails.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The chromium executable, or undefined when none is installed. */
export const chromiumPath: string | undefined = CANDIDATES.find(
  (p): p is string => p !== undefined && p !== "" && existsSync(p),
);

export const SKIP_MESSAGE =
  "console browser tests skipped: no chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)";

if (chromiumPath === undefined) {
  if (process.env.CI !== undefined && process.env.CI !== "")
    throw new Error(`${SKIP_MESSAGE}; CI must run them`);
  console.warn(SKIP_MESSAGE);
}

/** Launches headless chromium (no sandbox: CI containers run as root). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath!, args: ["--no-sandbox", "--disable-gpu"] });
}

/**
 * Builds the console from its sources into a directory of its own (as `npm run build` does into dist/console,
 * which other test processes may be serving at the same moment) and returns it.
 */
export function buildConsole(): string {
  const script = fileURLToPath(new URL("../../../scripts/console-build.mjs", import.meta.url));
  const out = join(mkdtempSync(join(tmpdir(), "console-build-")), "console");
  execFileSync(process.execPath, [script, "--out", out], { stdio: "ignore" });
  return out;
}
