/**
 * The cashback flag of POST /v1/laser/create is passed to create_v2 as asked (built from the IDL, since the
 * SDK refuses it): today's program rejects it (6082), a localnet started with cashback creation enabled
 * creates a cashback coin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { SPEC } from "../../../src/core/errors.js";
import { bondingCurveAddress } from "../../../src/launch/programs.js";
import { decodeBondingCurve } from "../../../src/launch/state.js";
import { startE2e, type E2e } from "../../helpers/e2e.js";

const URI = "https://example.com/cashback.json";

describe("cashback create on today's program", () => {
  let e2e: E2e;
  beforeAll(async () => {
    e2e = await startE2e();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("is a 400 token creation simulation failed carrying the decoded 6082; nothing is sent", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const before = await e2e.balance(wallet);
    e2e.reset();
    const res = await e2e.post(apiKey, "/v1/laser/create", {
      name: "C",
      symbol: "C",
      uri: URI,
      cashback: true,
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{
      detail: string;
      program_error?: { program: string; code: number; name: string };
    }>();
    expect(body.detail).toBe(SPEC.create.simulationFailed);
    expect(body.program_error).toEqual({ program: "launch", code: 6082, name: "CashbackDeprecated" });
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
    expect(await e2e.balance(wallet)).toBe(before);
    const history = await e2e.get(apiKey, "/v1/executions?kind=create");
    const [record] = history.json<{ executions: Record<string, unknown>[] }>().executions;
    expect(record).toMatchObject({ kind: "create", status: "failed", request: { cashback: true } });
  });

  it("without the flag the same request creates a non-cashback coin", async () => {
    const { apiKey } = await e2e.setup();
    const res = await e2e.post(apiKey, "/v1/laser/create", {
      name: "C",
      symbol: "C",
      uri: URI,
      cashback: "false",
    });
    expect(res.statusCode).toBe(200);
    const info = await e2e.connection.getAccountInfo(
      bondingCurveAddress(new PublicKey(res.json<{ mint: string }>().mint)),
    );
    expect(decodeBondingCurve(info!.data).isCashbackCoin).toBe(false);
  });
});

describe("cashback create on a localnet with cashback creation enabled", () => {
  let e2e: E2e;
  beforeAll(async () => {
    e2e = await startE2e({ localnet: { cashbackCreation: true } });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("creates a cashback coin: the flag is recorded on the curve", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const res = await e2e.post(apiKey, "/v1/laser/create", {
      // "CB"/"CB" with this URI would make the mint exactly the Multisig size, which Token-2022 pads.
      name: "CB",
      symbol: "CB",
      uri: URI,
      cashback: true,
    });
    expect(res.statusCode).toBe(200);
    const mint = res.json<{ mint: string }>().mint;
    const info = await e2e.connection.getAccountInfo(bondingCurveAddress(new PublicKey(mint)), "confirmed");
    const curve = decodeBondingCurve(info!.data);
    expect(curve.isCashbackCoin).toBe(true);
    expect(curve.creator.toBase58()).toBe(wallet);
  });
});
