/** The orders benches' `--store`: in memory (no URL), or a SQLite file in a fresh directory removed after; else a throw. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxStore } from "../../bench/orders-store.js";

describe("orders bench store", () => {
  it("is in memory by name, with nothing to remove", () => {
    const s = sandboxStore("memory");
    expect(s).toMatchObject({ kind: "memory", databaseUrl: undefined });
    s.remove();
  });

  it("is a SQLite file in a fresh directory, removed with what the store wrote there", () => {
    const s = sandboxStore("file");
    expect(s.kind).toBe("file");
    expect(s.databaseUrl).toMatch(/^sqlite:\/.*orders-bench-.*\/lasertrade\.sqlite$/);
    const file = s.databaseUrl!.slice("sqlite:".length);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "x");
    s.remove();
    expect(existsSync(dirname(file))).toBe(false);
  });

  it("refuses any other name", () => {
    expect(() => sandboxStore("disk")).toThrow('--store: memory or file (got "disk")');
  });
});
