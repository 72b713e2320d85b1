/** The installed versions of the launch SDKs (named in the doctor's output: "decodable with the SDK in use"). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The version of an installed package, read from its package.json (their export maps hide it); "?" if not found. */
export function installedVersion(pkg: string): string {
  try {
    let dir = dirname(require.resolve(pkg));
    for (let i = 0; i < 6; i++) {
      try {
        const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
          name?: string;
          version?: string;
        };
        if (meta.name === pkg && typeof meta.version === "string") return meta.version;
      } catch {
        // no package.json at this level: go up
      }
      dir = dirname(dir);
    }
  } catch {
    // not resolvable
  }
  return "?";
}
