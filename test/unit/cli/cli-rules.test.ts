/** The CLI's pure parts: split destinations, tables and JSON output, explorer links, the 0600 config file. */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commaList, parseDestination } from "../../../packages/cli/src/args.js";
import { configPath, loadConfig, saveConfig } from "../../../packages/cli/src/config-file.js";
import {
  customClusterExplorer,
  describe as render,
  explorerLink,
  table,
  toJson,
} from "../../../packages/cli/src/render.js";

describe("split destinations", () => {
  it("reads ADDRESS, ADDRESS=SOL and ADDRESS=PERCENT%", () => {
    expect(parseDestination("A")).toEqual({ wallet: "A" });
    expect(parseDestination("A=0.1")).toEqual({ wallet: "A", sol: "0.1" });
    expect(parseDestination("A=25%")).toEqual({ wallet: "A", percent: "25" });
    expect(() => parseDestination("=1")).toThrow(/ADDRESS=SOL/);
    expect(commaList("a, b,,c ")).toEqual(["a", "b", "c"]);
  });
});

describe("output", () => {
  it("aligns tables, writes bigints as exact JSON numbers and links signatures", () => {
    expect(
      table([
        { id: 1, public_key: "abc" },
        { id: 22, public_key: null },
      ]),
    ).toBe("id  public_key\n1   abc\n22  -");
    expect(toJson({ lamports: 18_446_744_073_709_551_615n })).toBe(
      '{\n  "lamports": 18446744073709551615\n}',
    );
    const link = (s: string) => explorerLink("https://x/tx/{signature}", s);
    expect(render({ signature: "S", initial_buy: { amount: "0.1" } }, link)).toBe(
      "signature           S\nexplorer            https://x/tx/S\ninitial_buy.amount  0.1",
    );
    expect(render({ wallet: "W", transfers: [{ lamports: 5n, mode: "equal" }] }, link)).toBe(
      "wallet  W\n\ntransfers:\nlamports  mode\n5         equal",
    );
    expect(render([], link)).toBe("(none)");
    expect(explorerLink(customClusterExplorer("http://127.0.0.1:8899"), "S")).toBe(
      "https://explorer.solana.com/tx/S?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899",
    );
  });
});

describe("config file", () => {
  it("lives at $LASERTRADE_CONFIG or ~/.config/lasertrade, is written 0600 and keeps a replaced key", async () => {
    expect(configPath({ LASERTRADE_CONFIG: "/x/c.json" })).toBe("/x/c.json");
    expect(configPath({})).toMatch(/\.config\/lasertrade\/config\.json$/);
    const dir = await mkdtemp(join(tmpdir(), "lasertrade-config-"));
    try {
      const path = join(dir, "nested", "config.json");
      expect(await loadConfig(path)).toBeUndefined();
      expect(await saveConfig(path, { baseUrl: "http://a", apiKey: "k1" })).toBeUndefined();
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, "nested"))).mode & 0o777).toBe(0o700);
      expect(await saveConfig(path, { baseUrl: "http://a", apiKey: "k1", explorer: "e" })).toBeUndefined();
      const backup = await saveConfig(path, { baseUrl: "http://b", apiKey: "k2" });
      expect(backup).toMatch(/config\.json\.bak-\d+$/);
      expect(JSON.parse(await readFile(backup!, "utf8"))).toMatchObject({ apiKey: "k1" });
      expect((await stat(backup!)).mode & 0o777).toBe(0o600);
      expect(await loadConfig(path)).toEqual({ baseUrl: "http://b", apiKey: "k2" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
