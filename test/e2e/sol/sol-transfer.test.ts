/**
 * POST /v1/sol/transfer/execute end to end: native SOL, a Token-2022 launch token and a classic SPL Token
 * mint (created here with real SPL Token instructions), to recipients with and without a token account.
 */
import { describe, expect, it } from "vitest";
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import {
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { FOUNDATION, SPEC, TRADE_RULES } from "../../../src/core/errors.js";
import { rentExemptMinimum } from "../../../src/domain/sol/reserve.js";
import { associatedTokenAddress } from "../../../src/launch/programs.js";
import { expectedReserve, external, feeOf } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

interface TransferBody {
  source_wallet: string;
  destination_wallet: string;
  mint: string;
  asset_type: "sol" | "spl_token";
  amount: string;
  amount_units: number;
  decimals: number;
  source_token_account: string | null;
  destination_token_account: string | null;
  fee_reserve_lamports: number;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

/** Signs and sends over RPC, then polls the status (bounded by count, never by wall-clock assertions). */
async function sendAndPoll(instructions: TransactionInstruction[], signers: Keypair[]): Promise<void> {
  const { blockhash } = await e2e.connection.getLatestBlockhash("confirmed");
  const tx = new Transaction({ feePayer: signers[0]?.publicKey, recentBlockhash: blockhash }).add(
    ...instructions,
  );
  tx.sign(...signers);
  const signature = await e2e.connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
  for (let i = 0; i < 400; i++) {
    const status = (await e2e.connection.getSignatureStatuses([signature])).value[0];
    if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") {
      if (status.err) throw new Error(`transaction failed: ${JSON.stringify(status.err)}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${signature} did not confirm`);
}

/** A payer funded by the localnet's requestAirdrop. */
async function airdroppedPayer(): Promise<Keypair> {
  const payer = Keypair.generate();
  await e2e.connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
  for (let i = 0; i < 400 && (await e2e.balance(payer.publicKey.toBase58())) === 0n; i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  return payer;
}

/**
 * A classic SPL Token mint (6 decimals) created with real SPL Token instructions by an airdropped payer;
 * `holder` gets `amount` units in its associated account.
 */
async function classicMint(holder: string, amount: bigint): Promise<string> {
  const payer = await airdroppedPayer();
  const mint = Keypair.generate();
  const rent = await e2e.connection.getMinimumBalanceForRentExemption(MINT_SIZE);
  const ata = getAssociatedTokenAddressSync(mint.publicKey, new PublicKey(holder), true, TOKEN_PROGRAM_ID);
  await sendAndPoll(
    [
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: mint.publicKey,
        lamports: rent,
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_PROGRAM_ID),
      createAssociatedTokenAccountIdempotentInstruction(
        payer.publicKey,
        ata,
        new PublicKey(holder),
        mint.publicKey,
        TOKEN_PROGRAM_ID,
      ),
      createMintToInstruction(mint.publicKey, ata, payer.publicKey, amount, [], TOKEN_PROGRAM_ID),
    ],
    [payer, mint],
  );
  return mint.publicKey.toBase58();
}

/** Creates `owner`'s associated account for a classic SPL mint (so a transfer to it needs no creation). */
async function openAccount(mint: string, owner: PublicKey): Promise<void> {
  const payer = await airdroppedPayer();
  const mintKey = new PublicKey(mint);
  const ata = getAssociatedTokenAddressSync(mintKey, owner, true, TOKEN_PROGRAM_ID);
  await sendAndPoll(
    [
      createAssociatedTokenAccountIdempotentInstruction(
        payer.publicKey,
        ata,
        owner,
        mintKey,
        TOKEN_PROGRAM_ID,
      ),
    ],
    [payer],
  );
}

/** A launch token (Token-2022) bought by the key's default wallet through the trade endpoint. */
async function launchTokenHeldBy(apiKey: string, wallet: string): Promise<string> {
  const { mint } = e2e.localnet.admin.createToken({ name: "Send", symbol: "SND" });
  const res = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.05" });
  expect(res.statusCode, res.body).toBe(200);
  expect(await e2e.tokenBalance(wallet, mint)).toBeGreaterThan(0n);
  return mint;
}

describe("POST /v1/sol/transfer/execute", () => {
  it("sends native SOL: the recipient gets the amount, the sender pays amount + fee + tip", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 3n });
    const to = external();
    const res = await e2e.post(apiKey, "/v1/sol/transfer/execute", { destination_wallet: to, amount: "1.5" });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TransferBody>();
    expect(body).toMatchObject({
      source_wallet: wallet,
      destination_wallet: to,
      mint: "SOL",
      asset_type: "sol",
      amount: "1.5",
      amount_units: 1_500_000_000,
      // Issue 30: the same amount as text beside the spec's integer.
      amount_units_text: "1500000000",
      decimals: 9,
      source_token_account: null,
      destination_token_account: null,
      confirmed: true,
    });
    expect(BigInt(body.fee_reserve_lamports)).toBe(expectedReserve(e2e, 5_000n));
    // Issue 30: what the reserve is made of, beside it.
    expect((body as { fee_reserve_breakdown?: Record<string, string> }).fee_reserve_breakdown).toMatchObject({
      relay_tip_lamports: String(e2e.localnet.relayTipLamports),
      total_lamports: String(expectedReserve(e2e, 5_000n)),
    });
    expect(await e2e.balance(to)).toBe(1_500_000_000n);
    const fee = await feeOf(e2e, body.signature);
    expect(await e2e.balance(wallet)).toBe(
      3_000_000_000n - 1_500_000_000n - fee - e2e.localnet.relayTipLamports,
    );
  });

  it("sends a Token-2022 launch token to a recipient without, then with, a token account", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 5n });
    const mint = await launchTokenHeldBy(apiKey, wallet);
    const held = await e2e.tokenBalance(wallet, mint);
    const to = external();
    const mintKey = new PublicKey(mint);
    const recipientAta = associatedTokenAddress(new PublicKey(to), mintKey, TOKEN_2022_PROGRAM_ID).toBase58();

    const first = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: to,
      mint,
      amount: "1000",
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<TransferBody>()).toMatchObject({
      mint,
      asset_type: "spl_token",
      amount: "1000",
      amount_units: 1000,
      decimals: 6,
      source_token_account: associatedTokenAddress(
        new PublicKey(wallet),
        mintKey,
        TOKEN_2022_PROGRAM_ID,
      ).toBase58(),
      destination_token_account: recipientAta,
      confirmed: true,
    });
    expect(await e2e.tokenBalance(to, mint)).toBe(1000n);

    const second = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: to,
      mint,
      amount: 234,
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(await e2e.tokenBalance(to, mint)).toBe(1234n);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(held - 1234n);
  });

  it("sends a classic SPL token to a recipient with and without a token account", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 2n });
    const mint = await classicMint(wallet, 5_000_000n);
    const mintKey = new PublicKey(mint);

    // A recipient that already holds an account: no creation, so the sender pays no rent.
    const holder = Keypair.generate();
    await openAccount(mint, holder.publicKey);
    const before = await e2e.balance(wallet);
    const withAccount = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: holder.publicKey.toBase58(),
      mint,
      amount: "1500000",
    });
    expect(withAccount.statusCode, withAccount.body).toBe(200);
    const body = withAccount.json<TransferBody>();
    expect(body).toMatchObject({ asset_type: "spl_token", decimals: 6, amount_units: 1_500_000 });
    expect(body.destination_token_account).toBe(
      associatedTokenAddress(holder.publicKey, mintKey, TOKEN_PROGRAM_ID).toBase58(),
    );
    expect(await e2e.tokenBalance(holder.publicKey.toBase58(), mint)).toBe(1_500_000n);
    const fee = await feeOf(e2e, body.signature);
    expect(await e2e.balance(wallet)).toBe(before - fee - e2e.localnet.relayTipLamports);

    const fresh = external();
    const beforeCreate = await e2e.balance(wallet);
    const withoutAccount = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: fresh,
      mint,
      amount: "2500000",
    });
    expect(withoutAccount.statusCode, withoutAccount.body).toBe(200);
    expect(await e2e.tokenBalance(fresh, mint)).toBe(2_500_000n);
    // The sender paid the new account's rent (165 bytes) on top of the fee and the tip.
    const createFee = await feeOf(e2e, withoutAccount.json<TransferBody>().signature);
    expect(await e2e.balance(wallet)).toBe(
      beforeCreate - createFee - e2e.localnet.relayTipLamports - rentExemptMinimum(165),
    );
    expect(await e2e.tokenBalance(wallet, mint)).toBe(1_000_000n);

    // Issue 30: whole tokens through amount_tokens, decimals (6) read from the mint.
    const whole = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: fresh,
      mint,
      amount_tokens: "0.25",
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json<TransferBody>()).toMatchObject({ amount: "0.25", amount_units: 250_000, decimals: 6 });
    expect(await e2e.tokenBalance(fresh, mint)).toBe(2_750_000n);
    const refuse = async (body: Record<string, unknown>) =>
      (await e2e.post(apiKey, "/v1/sol/transfer/execute", { destination_wallet: fresh, ...body })).json();
    expect(await refuse({ mint, amount_tokens: "0.0000001" })).toEqual({
      code: "trade.amount_tokens_decimals",
      detail: "amount_tokens has more decimal places than the mint's 6 decimals",
    });
    expect(await refuse({ mint, amount: "1", amount_tokens: "1" })).toEqual({
      detail: "use either amount (token atomic units) or amount_tokens (whole tokens), not both",
      code: "trade.amount_and_tokens",
    });
    expect(await refuse({ amount_tokens: "1" })).toEqual({
      detail: "amount_tokens (whole tokens) is only for token transfers; a SOL amount goes in amount",
      code: "trade.amount_tokens_on_sol",
    });
    // The spec's text, with the unit it expects beside it.
    expect(await refuse({ mint, amount: "1.5" })).toEqual({
      detail: "token amount must be a positive integer",
      code: "transfer.token_amount",
      expected_unit:
        "amount is in token atomic units (a positive integer); whole tokens such as 1.5 go in amount_tokens",
    });
  });

  it("answers every error of the spec's table", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 1n });
    const to = external();
    const mint = await classicMint(wallet, 10n);
    const otherMint = await classicMint(external(), 10n);
    const foreign = (await e2e.setup({ sol: 0n })).wallet;
    const cases: [unknown, number, string][] = [
      [{ destination_wallet: "x", amount: "1" }, 400, SPEC.transfer.invalidDestination],
      [{ destination_wallet: wallet, amount: "0.1" }, 400, SPEC.transfer.destinationIsSource],
      [
        { destination_wallet: wallet, source_wallet: wallet, amount: "0.1" },
        400,
        SPEC.transfer.destinationIsSource,
      ],
      [{ destination_wallet: to, amount: "1" }, 400, SPEC.transfer.lowBalance],
      [{ destination_wallet: to, amount: "0.0000000001" }, 400, SPEC.trade.solDecimals],
      [{ destination_wallet: to, mint: "bad-mint", amount: "1" }, 400, SPEC.transfer.invalidMint],
      [{ destination_wallet: to, mint: external(), amount: "1" }, 400, SPEC.transfer.mintNotFound],
      [{ destination_wallet: to, mint: wallet, amount: "1" }, 400, SPEC.transfer.unsupportedMint],
      [{ destination_wallet: to, mint: otherMint, amount: "1" }, 400, SPEC.transfer.noSourceAccount],
      [{ destination_wallet: to, mint, amount: "11" }, 400, SPEC.transfer.lowTokenBalance],
      [{ destination_wallet: to, mint, amount: "1.5" }, 400, SPEC.transfer.tokenAmount],
      [{ destination_wallet: to, mint, amount: 0 }, 400, SPEC.transfer.tokenAmount],
      [{ destination_wallet: to }, 400, TRADE_RULES.amountRequired],
      [{ destination_wallet: to, source_wallet: foreign, amount: "0.1" }, 404, FOUNDATION.walletNotFound],
    ];
    for (const [body, status, detail] of cases) {
      const res = await e2e.post(apiKey, "/v1/sol/transfer/execute", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      // Issue 30: the spec's token-amount text carries the unit it expects beside it (never instead).
      const beside =
        detail === SPEC.transfer.tokenAmount ? { expected_unit: TRADE_RULES.atomicUnitsHint } : {};
      expect(res.json(), JSON.stringify(body)).toEqual({
        code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/),
        detail,
        ...beside,
      });
    }
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
  });
});
