/**
 * POST /v1/laser/create/build (issue 32): a token created by a wallet the service does not hold. Planned exactly
 * like POST /v1/laser/create (`planCreate`: the fresh curve from Global, create_v2 with the dev buy), with the
 * outside wallet as creator and payer. The service generates the mint keypair, signs the transaction with it
 * alone and wipes it: the answer needs only the outside wallet's signature, and the mint secret is never
 * answered, stored or logged.
 */
import { PublicKey } from "@solana/web3.js";
import { parseAddress, type Address } from "../../core/addresses.js";
import { badRequest } from "../../core/errors.js";
import { fieldOf, type RequestBody } from "../../core/request-fields.js";
import type { Chain } from "../../chain/chain.js";
import { newMintKey } from "../create/mint-key.js";
import { planCreate } from "../create/plan.js";
import { parseCreateFields, type CreateFields } from "../create/request.js";
import { createRequestSummary } from "../create/service.js";
import type { SpendGuard } from "../execution/types.js";
import { createConfigs } from "../trade/configs.js";
import { assembleOutside } from "./assemble-outside.js";
import type { OutsideBuilds } from "./builds.js";
import { OUTSIDE } from "./texts.js";

/** A create build: the create model and the outside creator. */
export interface CreateBuildIntent {
  create: CreateFields;
  publicKey: Address;
}

/** The outside wallet of a body (`public_key`, alias `publicKey`), required. */
export function outsidePublicKey(body: RequestBody): Address {
  const pk = fieldOf(body, ["public_key", "publicKey"]);
  if (pk === undefined || pk === null || pk === "") throw badRequest(OUTSIDE.publicKeyRequired);
  return parseAddress(pk, OUTSIDE.publicKeyInvalid);
}

/** Parses a create build body: the create model's rules (spec 4.4 texts), then `public_key`. */
export function parseCreateBuildRequest(body: RequestBody): CreateBuildIntent {
  const create = parseCreateFields(body);
  return { create, publicKey: outsidePublicKey(body) };
}

/** Collaborators of a create build. */
export interface CreateBuildDeps {
  chain: Pick<Chain, "caches" | "assemble"> & Partial<Pick<Chain, "programGeneration" | "relayTip">>;
  outsideBuilds: OutsideBuilds;
  spendGuard?: SpendGuard;
  random?: () => number;
}

/** The create build answer. */
export interface CreateBuildResult {
  transaction: string;
  public_key: string;
  mint: string;
  creator: string;
  metadata_uri: string;
  initial_buy?: { amount: string; amount_lamports: string; slippage_bps: number; expected_output: string };
  compute_unit_limit: number;
  compute_unit_price_micro_lamports: string;
  tip_lamports: string;
  last_valid_block_height: number;
}

/** Builds the create for the outside wallet, signed by the fresh mint only; remembered for the send. */
export async function runCreateBuild(
  deps: CreateBuildDeps,
  apiKeyId: number,
  intent: CreateBuildIntent,
): Promise<CreateBuildResult> {
  const { create, publicKey } = intent;
  await deps.spendGuard?.beforeSign();
  const config = createConfigs(deps.chain);
  const creator = new PublicKey(publicKey);
  const mintKey = newMintKey();
  const mint = mintKey.keypair.publicKey.toBase58();
  let plan;
  let built;
  try {
    plan = await planCreate({
      config,
      fields: create,
      creator,
      mint: mintKey.keypair.publicKey,
      ...(deps.random !== undefined ? { random: deps.random } : {}),
    });
    built = assembleOutside(deps, {
      kind: "create",
      payer: creator,
      instructions: plan.instructions,
      extraSigners: [mintKey.keypair],
    });
  } finally {
    // The mint's signature is in the wire: its secret is of no further use.
    mintKey.wipe();
  }
  const { tx } = built;
  const initialBuy =
    plan.initialBuy === null
      ? undefined
      : {
          amount: plan.initialBuy.text,
          amount_lamports: plan.initialBuy.lamports.toString(),
          slippage_bps: Number(plan.initialBuy.slippageBps),
          expected_output: plan.initialBuy.minTokensOut.toString(),
        };
  const details = {
    mint,
    creator: publicKey,
    metadata_uri: create.uri,
    ...(initialBuy !== undefined ? { initial_buy: initialBuy } : {}),
  };
  await deps.outsideBuilds.remember(built.message, {
    apiKeyId,
    publicKey,
    mint,
    action: "buy",
    kind: "create",
    // The dev buy's fill starts the creator's position, as on a managed create.
    fill: initialBuy !== undefined ? { wallet: publicKey, mint, side: "buy" } : null,
    request: { ...createRequestSummary(create), public_key: publicKey, outside: true },
    details,
    spendable: built.spendable,
    lastValidBlockHeight: tx.lastValidBlockHeight,
    computeUnitLimit: tx.computeUnitLimit,
    computeUnitPriceMicroLamports: tx.computeUnitPriceMicroLamports,
  });
  const tipLamports = tx.tipAccount === null ? 0n : (deps.chain.relayTip?.().lamports ?? 0n);
  return {
    transaction: Buffer.from(tx.wire).toString("base64"),
    public_key: publicKey,
    ...details,
    compute_unit_limit: tx.computeUnitLimit,
    compute_unit_price_micro_lamports: tx.computeUnitPriceMicroLamports.toString(),
    tip_lamports: tipLamports.toString(),
    last_valid_block_height: tx.lastValidBlockHeight,
  };
}
