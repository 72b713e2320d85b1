/**
 * The stream-following client's rule, shared by the client in the bench's own process (orders-trigger.ts) and the
 * one in a process of its own (stream-client-process.ts): on the first `trade` message of the mint whose spot
 * price (virtual reserves) is 5% above the spot when armed, sell the whole position through the API.
 * Imports nothing from `src/`: a client knows the API, not the service's code.
 */

/** The spot price when armed: the curve's virtual reserves (SOL side, token side). */
export interface ArmedLevel {
  sol: bigint;
  tokens: bigint;
}

/** A /v1/stream message as the client reads it. */
interface StreamTrade {
  type: string;
  mint?: string;
  virtual_sol_reserves?: string;
  virtual_token_reserves?: string;
}

/** Whether stream message `m` is a trade of `mint` at a spot price ≥ 1.05 × `level`'s (in integers). */
export function crossesLevel(m: StreamTrade, mint: string, level: ArmedLevel): boolean {
  if (m.type !== "trade" || m.mint !== mint) return false;
  const sol = BigInt(m.virtual_sol_reserves ?? "0");
  const tokens = BigInt(m.virtual_token_reserves ?? "1");
  return sol * level.tokens * 100n >= level.sol * tokens * 105n;
}

/** Posts the client's sell of its whole position of `mint`; resolves with the answer's status. */
export function postSell(base: string, apiKey: string, mint: string): Promise<number> {
  return fetch(`http://${base}/v1/trades/execute`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({ action: "sell", mint, amount: "100%", simulate: false, confirm: true }),
  }).then(async (res) => {
    await res.text();
    return res.status;
  });
}
