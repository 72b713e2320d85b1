/** The API reads several pages share: wallets with their balances, holdings with their liquidation value. */
import { ApiFailure, type Api } from "./api";
import { big } from "./format";

export interface Wallet {
  id: number;
  public_key: string;
  status: string;
  is_default: boolean;
  created_at: string;
}

export interface TokenBalance {
  mint: string;
  amount: string;
  decimals: number;
  ui_amount: string;
}

export interface Balances {
  wallet: string;
  lamports: string;
  sol: string;
  tokens: TokenBalance[];
}

/** Every wallet of the key, with its balances (null when the chain could not be read: the error beside). */
export async function walletsWithBalances(
  api: Api,
): Promise<{ wallet: Wallet; balances: Balances | null; error?: unknown }[]> {
  const wallets = await api.get<Wallet[]>("/v1/wallets");
  return Promise.all(
    wallets.map(async (wallet) => {
      try {
        return { wallet, balances: await api.get<Balances>(`/v1/wallets/${wallet.public_key}/balances`) };
      } catch (error) {
        return { wallet, balances: null, error };
      }
    }),
  );
}

/** A sell quote (GET /v1/quote): what selling `units` of `mint` returns now, fees included. */
export interface SellQuote {
  venue: string;
  tokens_in: string;
  sol_out_lamports: string;
  min_sol_out_lamports: string;
  price_impact_percent: string;
  slippage_bps: number;
  fees: { total_fee_lamports: string };
}

/** The quote of selling `units` of `mint`; null when there is nothing to sell. */
export async function sellQuote(api: Api, mint: string, units: bigint): Promise<SellQuote | null> {
  if (units <= 0n) return null;
  return api.get<SellQuote>(`/v1/quote?mint=${encodeURIComponent(mint)}&side=sell&amount=${units}`);
}

/**
 * One position row as the console shows it. From GET /v1/positions when the service has it; otherwise built
 * from the wallets' token balances, valued at a sell quote of the whole balance (cost and PnL unknown).
 */
export interface PositionRow {
  wallet: string;
  mint: string;
  tokens: string;
  decimals: number;
  /** Lamports selling everything returns now (null: no quote). */
  value: string | null;
  costBasis: string | null;
  realized: string | null;
  unrealized: string | null;
  openedAt: string | null;
  lastTradeAt: string | null;
  /** Tokens held whose cost is unknown (arrived from outside the service): all of them without a ledger. */
  unknownTokens: string;
}

/** Holdings from balances (no positions ledger): every token balance above zero, valued by a quote. */
export async function holdingsFromBalances(api: Api): Promise<PositionRow[]> {
  const rows: PositionRow[] = [];
  for (const { wallet, balances } of await walletsWithBalances(api)) {
    for (const t of balances?.tokens ?? []) {
      if (big(t.amount) === 0n) continue;
      const quote = await sellQuote(api, t.mint, big(t.amount)).catch(() => null);
      rows.push({
        wallet: wallet.public_key,
        mint: t.mint,
        tokens: t.amount,
        decimals: t.decimals,
        value: quote?.sol_out_lamports ?? null,
        costBasis: null,
        realized: null,
        unrealized: null,
        openedAt: null,
        lastTradeAt: null,
        unknownTokens: t.amount,
      });
    }
  }
  return rows;
}

/** True when `e` says the route does not exist on this service (an older one without the positions API). */
export function isMissingRoute(e: unknown): boolean {
  return e instanceof ApiFailure && e.status === 404 && e.message === "route not found";
}

/**
 * The mint's decimals, from the API: GET /v1/quote converts whole tokens (`amount_tokens`, sells) with the
 * decimals it read from the mint, so the atomic units of one whole token are 10^decimals. Undefined when that
 * answer is not a power of ten (never expected), so the caller shows atomic units instead of guessing.
 */
export async function mintDecimals(api: Api, mint: string): Promise<number | undefined> {
  const q = await api.get<{ amount_units_text: string }>(
    `/v1/quote?mint=${encodeURIComponent(mint)}&side=sell&amount_tokens=1`,
  );
  return decimalsOfOne(q.amount_units_text);
}

/** The decimals whose one whole token is `units` atomic units ("1000000" → 6), or undefined. */
export function decimalsOfOne(units: string): number | undefined {
  return /^10*$/.test(units) ? units.length - 1 : undefined;
}
