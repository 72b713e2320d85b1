/** The copy order's fields of the POST /v1/orders body, as the OpenAPI document describes them. */
export const COPY_BODY_FIELDS = {
  follow: {
    description: "copy: the wallets whose trades are copied (1 to 20 base58 addresses, none of yours)",
  },
  ratio: {
    description:
      "copy: size of a copied buy as their SOL × ratio (above 0, at most 100, 6 decimals); or amount: fixed SOL per buy",
  },
  sell_sizing: {
    description:
      "copy: percent (default: sell the share of our position they sold of theirs) or ratio (their tokens × ratio)",
  },
  buys_only: { description: "copy: copy their buys only" },
  sells_only: { description: "copy: copy their sells only" },
  max_per_token: { description: "copy: at most this SOL bought per token (a buy is cut to what is left)" },
  max_per_day: { description: "copy: at most this SOL bought in any 24 h (a buy is cut to what is left)" },
  delay_ms: { description: "copy: wait this long after their trade before copying it (0 to 60000)" },
  max_price_move: {
    description: "copy: skip (recorded) when the price moved more than this percent since their trade",
  },
} as const;
