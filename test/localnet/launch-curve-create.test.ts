/**
 * The emulated bonding-curve program driven only by transactions the official SDK builds, signed and
 * processed like client transactions: balances must match the SDK's own quotes to the unit.
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import { TOKEN_2022_PROGRAM_ID, unpackMint, getMetadataPointerState } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import { lamports } from "./ledger-views.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_RECIPIENTS,
  RESERVED_FEE_RECIPIENTS,
  createToken,
  creatorVaultAddress,
  curveAddress,
  readCurve,
  userVolumeAccumulatorAddress,
  GLOBAL_ADDRESS,
  FEE_CONFIG_ADDRESS,
} from "../../localnet/programs/launch/index.js";
import { ata, big, bn, expectCustom, funded, must, newLedger, send, tokenBalance } from "./launch-fixture.js";

const { PUMP_SDK } = launchSdk;

describe("genesis", () => {
  it("holds the fee-recipient lists the SDK picks from, and the SDK's hard-coded buyback list", async () => {
    const ledger = newLedger();
    const global = PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS));
    expect([global.feeRecipient, ...global.feeRecipients].map(String)).toEqual(FEE_RECIPIENTS.map(String));
    expect([global.reservedFeeRecipient, ...global.reservedFeeRecipients].map(String)).toEqual(
      RESERVED_FEE_RECIPIENTS.map(String),
    );
    expect(global.buybackFeeRecipients.map(String)).toEqual(BUYBACK_FEE_RECIPIENTS.map(String));
    // The SDK samples its buyback recipient from a private list: drive Math.random over every slot.
    const seen = new Set<string>();
    const random = Math.random;
    try {
      for (let i = 0; i < 8; i++) {
        Math.random = () => (i + 0.5) / 8;
        const ix = await PUMP_SDK.getBuyInstructionRaw({
          user: PublicKey.unique(),
          mint: PublicKey.unique(),
          creator: PublicKey.unique(),
          amount: new BN(1),
          solAmount: new BN(1),
          feeRecipient: FEE_RECIPIENTS[0]!,
          tokenProgram: TOKEN_2022_PROGRAM_ID,
        } as Parameters<typeof PUMP_SDK.getBuyInstructionRaw>[0]);
        seen.add(ix.keys[17]!.pubkey.toBase58());
      }
    } finally {
      Math.random = random;
    }
    expect([...seen].sort()).toEqual(BUYBACK_FEE_RECIPIENTS.map(String).sort());
    for (const k of [...FEE_RECIPIENTS, ...RESERVED_FEE_RECIPIENTS, ...BUYBACK_FEE_RECIPIENTS])
      expect(lamports(ledger, k)).toBeGreaterThanOrEqual(ledger.rentExemptMinimum(0));
    const feeConfig = PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS));
    expect(feeConfig.feeTiers[0]!.fees.protocolFeeBps.toNumber()).toBe(95);
    expect(feeConfig.feeTiers[0]!.fees.creatorFeeBps.toNumber()).toBe(30);
  });
});

describe("create_v2", () => {
  it("creates a Token-2022 mint with metadata, the curve and its token account; mayhem flag recorded", () => {
    const ledger = newLedger();
    const { mint, creator } = createToken(ledger, {
      name: "Alpha",
      symbol: "ALP",
      uri: "https://x/a.json",
      mayhem: true,
    });
    const mintInfo = must(ledger, mint);
    expect(mintInfo.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    const m = unpackMint(mint, mintInfo, TOKEN_2022_PROGRAM_ID);
    expect(m.decimals).toBe(6);
    expect(m.supply).toBe(1_000_000_000_000_000n);
    expect(m.mintAuthority).toBeNull();
    expect(m.freezeAuthority).toBeNull();
    expect(getMetadataPointerState(m)?.metadataAddress?.equals(mint)).toBe(true);
    expect(mintInfo.data.includes(Buffer.from("Alpha"))).toBe(true);
    expect(mintInfo.data.includes(Buffer.from("https://x/a.json"))).toBe(true);
    const curve = readCurve(ledger, mint)!;
    expect(curve.isMayhemMode).toBe(true);
    expect(curve.isCashbackCoin).toBe(false);
    expect(curve.creator.equals(creator)).toBe(true);
    expect(must(ledger, curveAddress(mint)).data.length).toBe(151);
    expect(tokenBalance(ledger, ata(mint, curveAddress(mint)))).toBe(1_000_000_000_000_000n);
    expect(readCurve(ledger, createToken(ledger, {}).mint)!.isMayhemMode).toBe(false);
  });

  it("rejects the cashback flag with 6082 by default and creates a cashback coin with the switch on", async () => {
    for (const cashbackCreation of [false, true]) {
      const ledger = newLedger(cashbackCreation);
      const user = funded(ledger);
      const mint = Keypair.generate();
      const ix = await PUMP_SDK.createV2Instruction({
        mint: mint.publicKey,
        name: "Cash",
        symbol: "CB",
        uri: "https://x/c.json",
        creator: user.publicKey,
        user: user.publicKey,
        mayhemMode: false,
        cashback: true,
      });
      const before = lamports(ledger, user.publicKey);
      const rec = send(ledger, user, [ix], [mint]);
      if (!cashbackCreation) {
        expectCustom(rec, 0, 6082);
        expect(rec.logs.join("\n")).toContain("CashbackDeprecated");
        expect(ledger.getAccount(mint.publicKey)).toBeNull();
        expect(lamports(ledger, user.publicKey)).toBe(before - rec.fee);
      } else {
        expect(rec.err).toBeNull();
        expect(readCurve(ledger, mint.publicKey)!.isCashbackCoin).toBe(true);
      }
    }
  });

  it("create-v2-and-buy built by the SDK lands with exactly the quoted tokens and lamports", async () => {
    const ledger = newLedger();
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10_000n, max: 80_000_000_000n }), async (sol) => {
        const user = funded(ledger, 200n);
        const mint = Keypair.generate();
        const global = PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS));
        const feeConfig = PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS));
        const q = { global, feeConfig, mintSupply: null, bondingCurve: null, quoteMint: PublicKey.default };
        const amount = launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: bn(sol) });
        const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
        const ixs = await PUMP_SDK.createV2AndBuyInstructions({
          global,
          mint: mint.publicKey,
          name: "Prop",
          symbol: "PRP",
          uri: "https://x/p.json",
          creator: user.publicKey,
          user: user.publicKey,
          amount,
          solAmount: cost,
          mayhemMode: false,
        });
        const before = lamports(ledger, user.publicKey);
        const rec = send(ledger, user, ixs, [mint]);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        const userAta = ata(mint.publicKey, user.publicKey);
        expect(tokenBalance(ledger, userAta)).toBe(big(amount));
        const curveKey = curveAddress(mint.publicKey);
        const curve = readCurve(ledger, mint.publicKey)!;
        const rents =
          lamports(ledger, mint.publicKey) +
          ledger.rentExemptMinimum(151) +
          lamports(ledger, ata(mint.publicKey, curveKey)) +
          lamports(ledger, userAta) +
          lamports(ledger, userVolumeAccumulatorAddress(user.publicKey));
        const solCost = (big(amount) * 30_000_000_000n) / (1_073_000_000_000_000n - big(amount)) + 1n;
        const creatorFee = (solCost * 30n + 9_999n) / 10_000n;
        const vault = lamports(ledger, creatorVaultAddress(user.publicKey));
        // Vault top-up: the creator's first fee must leave the vault rent-exempt (the buyer pays the gap).
        const topUp =
          creatorFee < ledger.rentExemptMinimum(0) ? ledger.rentExemptMinimum(0) - creatorFee : 0n;
        expect(vault).toBe(creatorFee + topUp);
        expect(curve.realQuoteReserves).toBe(solCost);
        expect(lamports(ledger, curveKey)).toBe(ledger.rentExemptMinimum(151) + curve.realQuoteReserves);
        expect(before - lamports(ledger, user.publicKey)).toBe(big(cost) + rec.fee + rents + topUp);
      }),
      { numRuns: 20 },
    );
  });
});
