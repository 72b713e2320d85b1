/** Issue 29: `lasertrade webhooks list` follows the pages of GET /v1/webhooks; --limit/--after print one page. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextTestIp, testVault } from "../helpers/app.js";
import { listeningApp, type ListeningApp } from "../helpers/listening-app.js";

const CLI = fileURLToPath(new URL("../../packages/cli/bin/lasertrade.js", import.meta.url));

describe("the CLI's webhooks commands", () => {
  let running: ListeningApp | undefined;
  let apiKey = "";
  beforeAll(async () => {
    running = await listeningApp(testVault(), {});
    const res = await running.app.inject({
      method: "POST",
      url: "/v1/laser/setup",
      remoteAddress: nextTestIp(),
    });
    apiKey = res.json<{ api_key: string }>().api_key;
  });
  afterAll(async () => running?.close());

  const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        process.execPath,
        [CLI, "--json", ...args],
        {
          env: {
            ...process.env,
            LASERTRADE_URL: running!.base,
            LASERTRADE_API_KEY: apiKey,
            LASERTRADE_CONFIG: "/nonexistent/lasertrade.json",
          },
        },
        (e, stdout, stderr) => resolve({ code: e === null ? 0 : 1, stdout, stderr }),
      ),
    );

  it("creates, lists every page or one page naming the next, deletes", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await cli([
        "webhooks",
        "create",
        `https://example.com/${i}`,
        "--types",
        "execution.confirmed",
      ]);
      expect(made.code, made.stderr).toBe(0);
      const hook = JSON.parse(made.stdout) as { id: string; secret: string; types: string[] };
      expect(hook.secret).toMatch(/^whsec_/);
      expect(hook.types).toEqual(["execution.confirmed"]);
      ids.push(hook.id);
    }
    const every = await cli(["webhooks", "list", "--page-size", "2"]);
    expect(every.code, every.stderr).toBe(0);
    expect((JSON.parse(every.stdout) as { id: string }[]).map((w) => w.id)).toEqual(ids);

    const one = await cli(["webhooks", "list", "--limit", "2"]);
    expect((JSON.parse(one.stdout) as { id: string }[]).map((w) => w.id)).toEqual(ids.slice(0, 2));
    expect(one.stderr).toContain(`more webhooks: lasertrade webhooks list --limit 2 --after ${ids[1]}`);
    const tail = await cli(["webhooks", "list", "--limit", "2", "--after", ids[1]!]);
    expect((JSON.parse(tail.stdout) as { id: string }[]).map((w) => w.id)).toEqual([ids[2]]);
    expect(tail.stderr).not.toContain("more webhooks");

    expect((await cli(["webhooks", "delete", ids[0]!])).code).toBe(0);
    const left = await cli(["webhooks", "list"]);
    expect((JSON.parse(left.stdout) as { id: string }[]).map((w) => w.id)).toEqual(ids.slice(1));
  });
});
