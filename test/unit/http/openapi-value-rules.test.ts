/**
 * Issue 30 item 6: the OpenAPI document states the parsers' value rules and the rules across fields JSON Schema
 * can state (OpenAPI 3.0 keywords). Each case is judged by the document (Ajv over its schemas) and by the
 * service's own parser, and both must agree: a body the document refuses is one the parser refuses.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { serviceOpenApiDocument } from "../../../scripts/client-types.js";
import { documentValidators } from "../../property/openapi-requests.js";
import { parseTradeRequest } from "../../../src/domain/trade/request.js";
import { parseSplitRequest } from "../../../src/domain/sol/split-request.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

let doc: Json;
let allows: (path: string, value: unknown) => boolean;
beforeAll(async () => {
  doc = (await serviceOpenApiDocument()) as Json;
  const v = documentValidators(doc);
  allows = (path, value) =>
    v.body(doc.paths[path].post.requestBody.content["application/json"].schema)(value);
});

const MINT = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const parses = (parse: () => unknown): boolean => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

describe("value rules stated in the OpenAPI document", () => {
  const trades: [string, Record<string, unknown>, boolean][] = [
    ["a SOL buy", { action: "buy", mint: MINT, amount: "0.1" }, true],
    ["a SOL buy with 9 decimals", { action: "buy", mint: MINT, amount: "0.123456789" }, true],
    ["a SOL buy with 10 decimals", { action: "buy", mint: MINT, amount: "0.1234567891" }, false],
    ["a percentage sell", { action: "sell", mint: MINT, amount: "50%" }, true],
    ["a percentage buy", { action: "buy", mint: MINT, amount: "50%" }, false],
    ["a sell of 101 %", { action: "sell", mint: MINT, amount: "101%" }, false],
    ["a sell of decimal units", { action: "sell", mint: MINT, amount: "1.5" }, false],
    ["a sell in SOL", { action: "sell", mint: MINT, amount: "10", denominated_in_sol: true }, false],
    ["a token-unit buy", { action: "buy", mint: MINT, amount: "1000", denominated_in_sol: false }, true],
    [
      "a token-unit buy of decimals",
      { action: "buy", mint: MINT, amount: "1.5", denominated_in_sol: false },
      false,
    ],
    ["whole tokens on a sell", { action: "sell", mint: MINT, amount_tokens: "1.5" }, true],
    ["whole tokens on a buy", { action: "buy", mint: MINT, amount_tokens: "1.5" }, false],
    ["amount and amount_tokens", { action: "sell", mint: MINT, amount: "10", amount_tokens: "1" }, false],
    ["no amount", { action: "buy", mint: MINT }, false],
    ["slippage 2.5", { action: "buy", mint: MINT, amount: "0.1", slippage: "2.5" }, true],
    ["slippage 2.555", { action: "buy", mint: MINT, amount: "0.1", slippage: "2.555" }, false],
    ["slippage 51", { action: "buy", mint: MINT, amount: "0.1", slippage: 51 }, false],
    [
      "slippage and slippage_bps",
      { action: "buy", mint: MINT, amount: "0.1", slippage: 1, slippage_bps: 100 },
      false,
    ],
    ["slippage_bps 5001", { action: "buy", mint: MINT, amount: "0.1", slippage_bps: 5001 }, false],
  ];
  it.each(trades)("trade: %s (document and parser agree)", (_name, body, ok) => {
    expect(allows("/v1/trades/execute", body)).toBe(ok);
    expect(parses(() => parseTradeRequest(body))).toBe(ok);
  });

  const splits: [string, Record<string, unknown>, boolean][] = [
    ["a percent share", { destinations: [{ wallet: WALLET, percent: "25.5" }] }, true],
    ["a share with 3 decimals", { destinations: [{ wallet: WALLET, percent: "25.555" }] }, false],
    ["sol and percent", { destinations: [{ wallet: WALLET, sol: "0.1", percent: 10 }] }, false],
    ["total_percent 0", { total_percent: "0", destinations: [{ wallet: WALLET }] }, false],
    ["six destinations", { destinations: Array.from({ length: 6 }, () => ({ wallet: WALLET })) }, false],
    [
      "fee_reserve_lamports as text",
      { fee_reserve_lamports: "5000", destinations: [{ wallet: WALLET }] },
      true,
    ],
    [
      "fee_reserve_lamports of decimals",
      { fee_reserve_lamports: "1.5", destinations: [{ wallet: WALLET }] },
      false,
    ],
  ];
  it.each(splits)("split: %s (document and parser agree)", (_name, body, ok) => {
    expect(allows("/v1/sol/split/execute", body)).toBe(ok);
    expect(parses(() => parseSplitRequest(body))).toBe(ok);
  });

  it("states the create model's lengths and URI", () => {
    const create = (over: Record<string, unknown>) => ({
      name: "N",
      symbol: "S",
      uri: "https://x.io/m.json",
      ...over,
    });
    expect(allows("/v1/laser/create", create({}))).toBe(true);
    expect(allows("/v1/laser/create", create({ name: "n".repeat(33) }))).toBe(false);
    expect(allows("/v1/laser/create", create({ symbol: "s".repeat(14) }))).toBe(false);
    expect(allows("/v1/laser/create", create({ name: "   " }))).toBe(false);
    expect(allows("/v1/laser/create", create({ uri: "ftp://x.io/m.json" }))).toBe(false);
    expect(allows("/v1/laser/create", create({ slippage: 5 }))).toBe(false);
    expect(allows("/v1/laser/create", create({ slippage: 5, initial_buy: "0.1" }))).toBe(true);
  });
});
