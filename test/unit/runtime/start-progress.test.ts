/** Issue 22: the service's start-up steps for `lasertrade sandbox`, and the CLI's lines for them. */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { describeStep, portInUse } from "../../../packages/cli/src/sandbox-start.js";
import { keptDatabaseNotice, reportStart } from "../../../src/runtime/start-progress.js";

describe("start progress", () => {
  it("sends each step wrapped for the parent, and never throws when the parent is gone", () => {
    const sent: unknown[] = [];
    reportStart({ step: "localnet", rpcUrl: "http://127.0.0.1:8899" }, (m) => sent.push(m));
    expect(sent).toEqual([{ lasertradeStart: { step: "localnet", rpcUrl: "http://127.0.0.1:8899" } }]);
    expect(() =>
      reportStart({ step: "listening", url: "http://x" }, () => {
        throw new Error("channel closed");
      }),
    ).not.toThrow();
  });

  it("the kept-database line says what a restart keeps and what it loses", () => {
    expect(keptDatabaseNotice("data/lasertrade.sqlite")).toBe(
      "sandbox: kept the database data/lasertrade.sqlite (API keys, wallets, history) from an earlier run; " +
        "the localnet chain starts empty, so that run's balances and tokens are gone",
    );
  });

  it("the CLI's line for each step", () => {
    expect(describeStep({ step: "database", path: "d/l.sqlite", existing: false })).toBe(
      "✓ database migrated: d/l.sqlite (new)",
    );
    expect(describeStep({ step: "database", path: "d/l.sqlite", existing: true })).toBe(
      "✓ database migrated: d/l.sqlite (kept from an earlier run)",
    );
    expect(describeStep({ step: "localnet", rpcUrl: "http://127.0.0.1:8899" })).toBe(
      "✓ localnet up: http://127.0.0.1:8899",
    );
    expect(describeStep({ step: "listening", url: "http://127.0.0.1:8080" })).toBe(
      "✓ listening: http://127.0.0.1:8080 (API docs: http://127.0.0.1:8080/docs, console: http://127.0.0.1:8080/console)",
    );
    expect(describeStep({ step: "notice", message: "sandbox: kept …" })).toBe("sandbox: kept …");
  });

  it("portInUse: true while something listens, false once it stopped", async () => {
    const server = createServer();
    const port = await new Promise<number>((r) =>
      server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)),
    );
    expect(await portInUse(port, "127.0.0.1")).toBe(true);
    await new Promise((r) => server.close(r));
    expect(await portInUse(port, "127.0.0.1")).toBe(false);
  });
});
