import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

describe("package-lock.json", () => {
  it("lists every optional platform package, so `npm ci` accepts it on the build machines' registry", () => {
    const lock = JSON.parse(readFileSync(new URL("../../../package-lock.json", import.meta.url), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const missing = Object.values(lock.packages).flatMap((meta) =>
      Object.keys(meta.optionalDependencies ?? {}).filter((dep) => !(`node_modules/${dep}` in lock.packages)),
    );
    // When this fails, run `npm run lock:platforms` and commit the lock (see docs/operations.md).
    expect(missing).toEqual([]);
  });
});
