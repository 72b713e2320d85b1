/** Issue 19 dry run through the typed client (`dryRun.run`) against a listening service on the localnet. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { LaserTrade } from "@lasertrade/client";
import type { E2e } from "../../helpers/e2e.js";
import { external } from "../../helpers/e2e.js";
import { startListeningE2e } from "../../helpers/sandbox-e2e.js";

let e2e: E2e;
let close: () => Promise<void> | void;
let client: LaserTrade;
let wallet: string;

beforeAll(async () => {
  let baseUrl: string;
  ({ e2e, baseUrl, close } = await startListeningE2e());
  const setup = await LaserTrade.setup(baseUrl);
  client = setup.client;
  wallet = setup.wallet_public_key;
  e2e.localnet.admin.fund(wallet, 5_000_000_000n);
});
afterAll(() => close());

it("dryRun.run answers the dry run of a transfer and sends nothing", async () => {
  const before = await e2e.balance(wallet);
  e2e.reset();
  const r = await client.dryRun.run("/v1/sol/transfer/execute", {
    destination_wallet: external(),
    amount: "0.25",
  });
  expect(r.dry_run).toBe(true);
  expect(r.policy.allowed).toBe(true);
  expect(r.transactions[0]?.fee_payer).toBe(wallet);
  expect(r.transactions[0]?.simulation?.ok).toBe(true);
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
  expect(await e2e.balance(wallet)).toBe(before);
  expect((await client.executions.list()).executions).toEqual([]);
});
