/**
 * Issue 23: GET /v1/wallets is paged (limit/after, next page in the Link header); the typed client and the CLI
 * follow the pages, tried with more wallets than one page holds.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LaserTrade } from "@lasertrade/client";
import { startListeningE2e } from "../../helpers/sandbox-e2e.js";

const CLI = fileURLToPath(new URL("../../../packages/cli/bin/lasertrade.js", import.meta.url));
const WALLETS = 5;

let baseUrl = "";
let close = async (): Promise<void> => {};
let apiKey = "";
let client: LaserTrade;
let counted: LaserTrade;
const walletGets: string[] = [];

beforeAll(async () => {
  ({ baseUrl, close } = await startListeningE2e());
  const setup = await LaserTrade.setup(baseUrl);
  apiKey = setup.api_key;
  client = setup.client;
  for (let i = 1; i < WALLETS; i++) await client.wallets.create();
  // The same key through a fetch that records each wallet-list request, to count the pages.
  counted = new LaserTrade({
    baseUrl,
    apiKey,
    fetch: (input, init) => {
      if (input.method === "GET" && new URL(input.url).pathname === "/v1/wallets") walletGets.push(input.url);
      return fetch(input, init);
    },
  });
}, 120_000);
afterAll(() => close());

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: {
          ...process.env,
          LASERTRADE_URL: baseUrl,
          LASERTRADE_API_KEY: apiKey,
          LASERTRADE_CONFIG: "/nonexistent/lasertrade.json",
        },
      },
      (e, stdout, stderr) => resolve({ code: e === null ? 0 : 1, stdout, stderr }),
    ),
  );
}

describe("wallet pages (issue 23)", () => {
  it("the client: page, iterate and listAll follow the Link header to the last page", async () => {
    const all = await client.wallets.list();
    expect(all).toHaveLength(WALLETS);

    const first = await client.wallets.page({ limit: 2 });
    expect(first.wallets).toEqual(all.slice(0, 2));
    expect(first.next_after).toBe(all[1]!.id);
    const last = await client.wallets.page({ limit: 2, after: all[3]!.id });
    expect(last.wallets).toEqual(all.slice(4));
    expect(last.next_after).toBeNull();

    walletGets.length = 0;
    expect(await counted.wallets.listAll({ pageSize: 2 })).toEqual(all);
    // 5 wallets, 2 a page: three requests, each after the previous page's last id.
    expect(walletGets.map((u) => new URL(u).search)).toEqual([
      "?limit=2",
      `?limit=2&after=${all[1]!.id}`,
      `?limit=2&after=${all[3]!.id}`,
    ]);

    const seen: number[] = [];
    for await (const w of client.wallets.iterate({ pageSize: 3 })) seen.push(w.id);
    expect(seen).toEqual(all.map((w) => w.id));
  });

  it("the CLI: `wallets list` prints every page; --limit/--after print one and name the next", async () => {
    const all = await client.wallets.list();
    const every = await cli(["--json", "wallets", "list", "--page-size", "2"]);
    expect(every.code, every.stderr).toBe(0);
    expect((JSON.parse(every.stdout) as { public_key: string }[]).map((w) => w.public_key)).toEqual(
      all.map((w) => w.public_key),
    );

    const one = await cli(["--json", "wallets", "list", "--limit", "2"]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toHaveLength(2);
    expect(one.stderr).toContain(`more wallets: lasertrade wallets list --limit 2 --after ${all[1]!.id}`);

    const tail = await cli(["--json", "wallets", "list", "--limit", "2", "--after", String(all[3]!.id)]);
    expect(tail.code, tail.stderr).toBe(0);
    expect((JSON.parse(tail.stdout) as { id: number }[]).map((w) => w.id)).toEqual([all[4]!.id]);
    expect(tail.stderr).not.toContain("more wallets");
  });
});
