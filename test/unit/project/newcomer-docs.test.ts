/** Issue 22: no machine paths in the docs; the start banner names the URL and /docs. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startBanner } from "../../../src/runtime/banner.js";

const root = new URL("../../../", import.meta.url);
// Every Markdown file a reader gets: the README and docs/ with its subfolders.
const docs = [
  "README.md",
  ...readdirSync(new URL("docs/", root), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

// An absolute path under a user's or a machine's own folders (Unix home, this project's checkouts, macOS and
// Windows user folders, a temporary folder named after a tool).
const MACHINE_PATH =
  /(^|[\s`("'=])(\/(home|work|Users|root|tmp\/[a-z]+-[a-z]+)\/\S*|[A-Z]:\\(Users|work)\\\S*)/gm;

describe("newcomer path", () => {
  it("the machine-path pattern catches what it guards against, and not ordinary paths", () => {
    for (const bad of [
      "see /work/main/docs/x.md",
      "`/home/dev/lasertrade/data`",
      "(/Users/ana/src)",
      "DATA_DIR=/root/data",
      "C:\\Users\\ana\\lasertrade",
    ])
      expect(bad.match(MACHINE_PATH), bad).not.toBeNull();
    for (const fine of ["./data/lasertrade.sqlite", "/v1/wallets", "~/.config/lasertrade", "/etc/ssl/certs"])
      expect(fine.match(MACHINE_PATH), fine).toBeNull();
  });

  it("docs cite no absolute path of a developer's machine", () => {
    expect(docs.length).toBeGreaterThan(5);
    for (const file of docs) {
      const text = readFileSync(new URL(file, root), "utf8");
      expect(text.match(MACHINE_PATH), file).toBeNull();
    }
  });

  it("the start banner is one line with the URL and /docs", () => {
    expect(startBanner("0.0.0.0", 8080)).toBe(
      "lasertrade listening on http://127.0.0.1:8080 (API docs: http://127.0.0.1:8080/docs, console: http://127.0.0.1:8080/console)",
    );
    expect(startBanner("::1", 9000)).toBe(
      "lasertrade listening on http://[::1]:9000 (API docs: http://[::1]:9000/docs, console: http://[::1]:9000/console)",
    );
  });
});
