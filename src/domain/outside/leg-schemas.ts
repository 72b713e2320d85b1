/**
 * Shapes the outside create and bundle answers share with the managed ones (issue 32), as named components of the
 * OpenAPI document (a shape repeated across operations is one component: docs/decisions.md, issue 23).
 */
import { closedObject, ref } from "../../core/json-schema.js";

const text = (description: string) => ({ type: "string", description }) as const;

/** One leg of a sent bundle: the managed bundle's `results` and an outside bundle send's. */
export const bundleLegResultComponent = closedObject(
  {
    index: { type: "integer", description: "the leg's position, from 0" },
    type: { type: "string", enum: ["create", "buy", "sell"], description: "the leg's type" },
    wallet: text("the wallet that signed the leg (a managed one, or the outside wallet of a sent build)"),
    signature: text("the leg's transaction signature"),
  },
  { $id: "BundleLegResult", description: "one leg of a bundle, in bundle order" },
);

/** A built create's developer buy (the create build's answer and the send of it). */
export const builtInitialBuyComponent = closedObject(
  {
    amount: text("SOL as requested"),
    amount_lamports: text("the same in lamports"),
    slippage_bps: { type: "integer", description: "the slippage applied, basis points" },
    expected_output: text("minimum token atomic units the dev buy receives"),
  },
  {
    $id: "BuiltInitialBuy",
    description: "the developer buy in the create's transaction; absent without one",
  },
);

export const bundleLegResultSchema = ref("BundleLegResult");
export const builtInitialBuySchema = ref("BuiltInitialBuy");
