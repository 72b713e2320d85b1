import { describe, it, expect } from "vitest";
import bs58 from "bs58";
import {
  type AccountSnapshot,
  cashbackTotals,
  computeCashback,
  parseCashbackCheckRequest,
  parseClaimRequest,
} from "../../../../src/domain/cashback/rules.js";
import { SPEC, TRADE_RULES, CASHBACK_RULES } from "../../../../src/core/errors.js";
import { apiErrorOf, detailOf } from "../../../helpers/expect.js";
import { addr } from "../../../helpers/fixtures.js";

const LAUNCH = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";
const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const WSOL = "So11111111111111111111111111111111111111112";
const accounts = {
  launch_user_volume_accumulator: addr(10),
  launchswap_user_volume_accumulator: addr(11),
  launchswap_wsol_ata: addr(12),
};
const rent = (len: number): bigint => BigInt(len + 128) * 6_960n;

function tokenAccount(opts: { mint?: string; owner?: string; amount: bigint; state?: number }): Uint8Array {
  const data = Buffer.alloc(165);
  Buffer.from(bs58.decode(opts.mint ?? WSOL)).copy(data, 0);
  Buffer.from(bs58.decode(opts.owner ?? accounts.launchswap_user_volume_accumulator)).copy(data, 32);
  data.writeBigUInt64LE(opts.amount, 64);
  data[108] = opts.state ?? 1;
  return data;
}

const input = (bonding: AccountSnapshot | null, swap: AccountSnapshot | null) => ({
  wallet: addr(1),
  accounts,
  bondingAccount: bonding,
  swapWsolAccount: swap,
  rentExemptMinimum: rent,
  expected: { launchProgram: LAUNCH, tokenProgram: TOKEN, nativeMint: WSOL },
});

describe("parseCashbackCheckRequest", () => {
  it("neither → default wallet; wallet → one; wallets → deduplicated in order", () => {
    expect(parseCashbackCheckRequest({})).toEqual({ kind: "default" });
    expect(parseCashbackCheckRequest({ wallet: addr(1) })).toEqual({ kind: "wallets", wallets: [addr(1)] });
    expect(parseCashbackCheckRequest({ wallets: [addr(2), addr(1), addr(2)] })).toEqual({
      kind: "wallets",
      wallets: [addr(2), addr(1)],
    });
    expect(
      parseCashbackCheckRequest({ wallets: Array.from({ length: 100 }, (_, i) => addr(i + 1)) }),
    ).toMatchObject({ kind: "wallets" });
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["both", { wallet: addr(1), wallets: [addr(2)] }, SPEC.check.walletAndWallets],
    ["empty", { wallets: [] }, SPEC.check.walletsCount],
    ["101", { wallets: Array.from({ length: 101 }, (_, i) => addr(i + 1)) }, SPEC.check.walletsCount],
    ["not array", { wallets: addr(1) }, SPEC.check.walletsCount],
    ["bad wallet", { wallet: "abc" }, SPEC.check.invalidAddress],
    ["bad entry", { wallets: [addr(1), 5] }, SPEC.check.invalidAddress],
  ];
  for (const [label, body, text] of cases) {
    it(label, () => expect(detailOf(() => parseCashbackCheckRequest(body))).toBe(text));
  }
});

describe("parseClaimRequest", () => {
  it("defaults both claims and confirm to true", () => {
    expect(parseClaimRequest({})).toEqual({ claimBondingCurve: true, claimLaunchswap: true, confirm: true });
    expect(parseClaimRequest({ wallet: addr(1), claim_launchswap: false })).toEqual({
      wallet: addr(1),
      claimBondingCurve: true,
      claimLaunchswap: false,
      confirm: true,
    });
  });
  it("refuses both disabled and bad fields", () => {
    expect(detailOf(() => parseClaimRequest({ claim_bonding_curve: false, claim_launchswap: false }))).toBe(
      SPEC.claim.noneEnabled,
    );
    expect(detailOf(() => parseClaimRequest({ claim_bonding_curve: 0 }))).toBe(
      CASHBACK_RULES.claimBondingBoolean,
    );
    expect(detailOf(() => parseClaimRequest({ claim_launchswap: "x" }))).toBe(
      CASHBACK_RULES.claimLaunchswapBoolean,
    );
    expect(detailOf(() => parseClaimRequest({ wallet: "x" }))).toBe(TRADE_RULES.walletInvalid);
  });
});

describe("computeCashback", () => {
  it("missing accounts give zero", () => {
    const e = computeCashback(input(null, null));
    expect(e).toEqual({
      wallet: addr(1),
      launch_bonding_lamports: 0n,
      launch_bonding_sol: "0.000000000",
      launchswap_wsol_lamports: 0n,
      launchswap_wsol: "0.000000000",
      total_claimable_lamports: 0n,
      total_claimable_sol: "0.000000000",
      accounts,
    });
  });

  it("bonding = lamports − rent-exempt minimum of its size; swap = WSOL amount", () => {
    const bonding = { lamports: rent(100) + 1_234_567_891n, owner: LAUNCH, data: new Uint8Array(100) };
    const swap = { lamports: 2_039_280n + 5n, owner: TOKEN, data: tokenAccount({ amount: 1_000_000_001n }) };
    const e = computeCashback(input(bonding, swap));
    expect(e.launch_bonding_lamports).toBe(1_234_567_891n);
    expect(e.launch_bonding_sol).toBe("1.234567891");
    expect(e.launchswap_wsol_lamports).toBe(1_000_000_001n);
    expect(e.launchswap_wsol).toBe("1.000000001");
    expect(e.total_claimable_lamports).toBe(2_234_567_892n);
    expect(e.total_claimable_sol).toBe("2.234567892");
  });

  it("an accumulator at or below its rent minimum has nothing to claim", () => {
    const bonding = { lamports: rent(100) - 1n, owner: LAUNCH, data: new Uint8Array(100) };
    expect(computeCashback(input(bonding, null)).launch_bonding_lamports).toBe(0n);
  });

  it("a frozen WSOL account still counts", () => {
    const swap = { lamports: 1n, owner: TOKEN, data: tokenAccount({ amount: 7n, state: 2 }) };
    expect(computeCashback(input(null, swap)).launchswap_wsol_lamports).toBe(7n);
  });

  it("502s on a foreign owner or a mismatching WSOL account", () => {
    const foreign = { lamports: 10n ** 9n, owner: TOKEN, data: new Uint8Array(100) };
    const e = apiErrorOf(() => computeCashback(input(foreign, null)));
    expect(e?.status).toBe(502);
    expect(e?.detail).toBe(SPEC.check.badOwner);

    const bad: [string, AccountSnapshot][] = [
      ["wrong program", { lamports: 1n, owner: LAUNCH, data: tokenAccount({ amount: 1n }) }],
      ["wrong mint", { lamports: 1n, owner: TOKEN, data: tokenAccount({ amount: 1n, mint: addr(3) }) }],
      ["wrong owner", { lamports: 1n, owner: TOKEN, data: tokenAccount({ amount: 1n, owner: addr(3) }) }],
      ["uninitialized", { lamports: 1n, owner: TOKEN, data: tokenAccount({ amount: 1n, state: 0 }) }],
      ["short data", { lamports: 1n, owner: TOKEN, data: new Uint8Array(64) }],
    ];
    for (const [, account] of bad) {
      const err = apiErrorOf(() => computeCashback(input(null, account)));
      expect(err?.status).toBe(502);
      expect(err?.detail).toBe(SPEC.check.badSwapAccount);
    }
  });

  it("totals sum the entries' integers", () => {
    const a = computeCashback(
      input({ lamports: rent(0) + 5n, owner: LAUNCH, data: new Uint8Array(0) }, null),
    );
    const b = computeCashback(
      input(null, { lamports: 1n, owner: TOKEN, data: tokenAccount({ amount: 999_999_999n }) }),
    );
    expect(cashbackTotals([a, b])).toEqual({
      launch_bonding_lamports: 5n,
      launch_bonding_sol: "0.000000005",
      launchswap_wsol_lamports: 999_999_999n,
      launchswap_wsol: "0.999999999",
      combined_lamports: 1_000_000_004n,
      combined_sol: "1.000000004",
    });
    expect(cashbackTotals([]).combined_sol).toBe("0.000000000");
  });
});
