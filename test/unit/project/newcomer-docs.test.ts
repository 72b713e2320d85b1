/** Issue 22: no machine paths in the docs; the start banner names the URL and /docs. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startBanner } from "../../../src/runtime/banner.js";

const root = new URL("../../../", import.meta.url);
const docs = [
  "README.md",
  ...readdirSync(new URL("docs/", root))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("newcomer path", () => {
  it("docs cite no absolute path of a developer's machine", () => {
    for (const file of docs) {
      const text = readFileSync(new URL(file, root), "utf8");
      expect(text.match(/(^|[\s`("'])\/(home|work|Users|root|tmp\/[a-z]+-[a-z]+)\/\S*/gm), file).toBeNull();
    }
  });

  it("the start banner is one line with the URL and /docs", () => {
    expect(startBanner("0.0.0.0", 8080)).toBe(
      "lasertrade listening on http://127.0.0.1:8080 (API docs: http://127.0.0.1:8080/docs)",
    );
    expect(startBanner("::1", 9000)).toBe(
      "lasertrade listening on http://[::1]:9000 (API docs: http://[::1]:9000/docs)",
    );
  });
});
