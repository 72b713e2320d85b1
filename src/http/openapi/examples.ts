/**
 * Request body examples of the execution routes in the OpenAPI document (issue 23), shown by /docs and
 * by generated clients. Document only: the linter (test/unit/http/openapi-lint.test.ts) checks each one
 * against its route's typed body, so an example cannot drift from the schema.
 */
import type { FastifySchema } from "fastify";

/** One named example (an OpenAPI Example Object). */
interface Example {
  summary: string;
  value: Record<string, unknown>;
}

// Addresses of the examples: valid base58 public keys, not real accounts of anyone.
const MINT = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const OTHER = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";
const THIRD = "5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1";

/** Per route (method and URL): its named request body examples. */
const REQUEST_EXAMPLES: Record<string, Record<string, Example>> = {
  "POST /v1/trades/execute": {
    buy: {
      summary: "Buy with 0.1 SOL at 2 % slippage (default wallet)",
      value: { action: "buy", mint: MINT, amount: "0.1", slippage: 2 },
    },
    sell_half: {
      summary: "Sell half of the wallet's tokens, without waiting for confirmation",
      value: { action: "sell", mint: MINT, amount: "50%", wallet: WALLET, confirm: false },
    },
  },
  "POST /v1/laser/create": {
    create_with_buy: {
      summary: "Create a token with a 0.5 SOL developer buy",
      value: {
        name: "Example",
        symbol: "EXM",
        uri: "https://example.com/metadata.json",
        initial_buy: "0.5",
        slippage: 5,
      },
    },
  },
  "POST /v1/laser/bundle": {
    create_and_buy: {
      summary: "Create a token and buy it from a second wallet in the same bundle",
      value: {
        accounts: [
          { type: "create", name: "Example", symbol: "EXM", uri: "https://example.com/metadata.json" },
          { type: "buy", wallet: OTHER, amount: "0.2", slippageBps: 500 },
        ],
        bundleTip: "0.0001",
      },
    },
  },
  "POST /v1/cashback/claim/execute": {
    claim_all: { summary: "Claim both venues' cashback of the default wallet", value: {} },
  },
  "POST /v1/sol/transfer/execute": {
    send_sol: { summary: "Send 0.25 SOL", value: { destination_wallet: OTHER, amount: "0.25" } },
    send_token: {
      summary: "Send 1,000,000 atomic units of a token from a named wallet",
      value: { destination_wallet: OTHER, source_wallet: WALLET, mint: MINT, amount: "1000000" },
    },
  },
  "POST /v1/sol/consolidate/execute": {
    sweep: {
      summary: "Sweep every other wallet of the key into one",
      value: { destination_wallet: WALLET },
    },
  },
  "POST /v1/sol/split/execute": {
    split: {
      summary: "Send 0.1 SOL to one wallet and split the rest equally with another",
      value: { destinations: [{ wallet: OTHER, sol: "0.1" }, { wallet: THIRD }] },
    },
  },
};

/** The swagger transform step: the route's examples on its (typed) request body. */
export function withRequestExamples(
  out: { schema: FastifySchema; url: string },
  route: { method: string | string[] },
): { schema: FastifySchema; url: string } {
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const examples = REQUEST_EXAMPLES[`${method} ${out.url}`];
  if (examples === undefined || out.schema?.body === undefined) return out;
  // @fastify/swagger moves `x-examples` to the media type's `examples` (named Example Objects).
  return {
    ...out,
    schema: { ...out.schema, body: { ...(out.schema.body as object), "x-examples": examples } },
  };
}
