import { describe, expect, it } from "vitest";
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { ApiError, LAUNCH } from "../../../src/core/errors.js";
import { launchProgram, launchSwapProgram } from "../../../src/launch/programs-offline.js";
import {
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  associatedTokenAddress,
  bondingCurveAddress,
  canonicalPoolAddress,
  poolVaultAddresses,
} from "../../../src/launch/programs.js";
import type { ReadAccount } from "../../../src/launch/read-account.js";
import { interpretTradeRead, tradeReadPlan, type TradeReadPlan } from "../../../src/launch/trade-accounts.js";
import { key, mintData, tokenAccountData } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const user = key(1);
const creator = key(2);
const mint = key(3);

function mintAccount(owner: PublicKey, supply = 1_000_000_000_000_000n): ReadAccount {
  return { lamports: 1_461_600n, owner, data: mintData({ supply, decimals: 6 }) };
}

function tokenAccount(
  tokenMint: PublicKey,
  owner: PublicKey,
  amount: bigint,
  program: PublicKey,
): ReadAccount {
  return { lamports: 2_039_280, owner: program, data: tokenAccountData({ mint: tokenMint, owner, amount }) };
}

async function curveAccount(complete: boolean, quoteMint: PublicKey = Z): Promise<ReadAccount> {
  const data = await launchProgram.coder.accounts.encode("bondingCurve", {
    virtualTokenReserves: new BN(complete ? 0 : "1000000000000000"),
    virtualQuoteReserves: new BN(complete ? 0 : "32000000000"),
    realTokenReserves: new BN(complete ? 0 : "720000000000000"),
    realQuoteReserves: new BN(complete ? 0 : "2000000000"),
    tokenTotalSupply: new BN("1000000000000000"),
    complete,
    creator,
    isMayhemMode: false,
    isCashbackCoin: true,
    quoteMint,
    creatorFeeBps: new BN(0),
    canEditCreatorFee: false,
    isHolderReward: false,
  });
  return {
    lamports: 2_000_000_000n,
    owner: LAUNCH_PROGRAM_ID,
    data: Buffer.concat([data, Buffer.alloc(26)]),
  };
}

async function poolAccount(
  pool: PublicKey,
  opts: { baseMint?: PublicKey; quoteMint?: PublicKey; baseProgram?: PublicKey; owner?: PublicKey } = {},
): Promise<ReadAccount> {
  const baseMint = opts.baseMint ?? mint;
  const vaults = poolVaultAddresses(pool, baseMint, opts.baseProgram ?? TOKEN_2022_PROGRAM_ID);
  const data = await launchSwapProgram.coder.accounts.encode("pool", {
    poolBump: 255,
    index: 0,
    creator: key(20),
    baseMint,
    quoteMint: opts.quoteMint ?? NATIVE_MINT,
    lpMint: key(21),
    poolBaseTokenAccount: vaults.base,
    poolQuoteTokenAccount: vaults.quote,
    lpSupply: new BN(1),
    coinCreator: creator,
    isMayhemMode: false,
    isCashbackCoin: false,
    virtualQuoteReserves: new BN(0),
    creatorFeeBps: new BN(0),
    canEditCreatorFee: false,
  });
  return {
    lamports: 1n,
    owner: opts.owner ?? LAUNCH_SWAP_PROGRAM_ID,
    data: Buffer.concat([data, Buffer.alloc(30)]),
  };
}

type Chain = Map<string, ReadAccount>;

function read(plan: TradeReadPlan, chain: Chain) {
  return interpretTradeRead(
    plan,
    plan.addresses.map((a) => chain.get(a.toBase58()) ?? null),
  );
}

function put(chain: Chain, address: PublicKey, account: ReadAccount): Chain {
  chain.set(address.toBase58(), account);
  return chain;
}

function withPoolVaults(
  chain: Chain,
  pool: PublicKey,
  base: bigint,
  quote: bigint,
  program = TOKEN_2022_PROGRAM_ID,
) {
  const vaults = poolVaultAddresses(pool, mint, program);
  put(chain, vaults.base, tokenAccount(mint, pool, base, program));
  put(chain, vaults.quote, tokenAccount(NATIVE_MINT, pool, quote, TOKEN_PROGRAM_ID));
  return chain;
}

function expectApiError(fn: () => unknown, detail: string) {
  expect(fn).toThrow(ApiError);
  try {
    fn();
  } catch (e) {
    expect((e as ApiError).status).toBe(400);
    expect((e as ApiError).detail).toBe(detail);
  }
}

describe("tradeReadPlan", () => {
  it("reads everything routing and building need in one list, without duplicates", () => {
    const plan = tradeReadPlan({ mint, user });
    const set = new Set(plan.addresses.map((a) => a.toBase58()));
    expect(set.size).toBe(plan.addresses.length);
    for (const k of [
      mint,
      bondingCurveAddress(mint),
      canonicalPoolAddress(mint),
      associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID),
      associatedTokenAddress(user, mint, TOKEN_PROGRAM_ID),
      associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID),
      poolVaultAddresses(canonicalPoolAddress(mint), mint, TOKEN_2022_PROGRAM_ID).base,
      poolVaultAddresses(canonicalPoolAddress(mint), mint, TOKEN_PROGRAM_ID).base,
      poolVaultAddresses(canonicalPoolAddress(mint), mint, TOKEN_PROGRAM_ID).quote,
    ]) {
      expect(set.has(k.toBase58())).toBe(true);
    }
    const explicit = key(77);
    expect(tradeReadPlan({ mint, user, pool: explicit }).addresses).toContainEqual(explicit);
  });
});

describe("interpretTradeRead routing", () => {
  it("routes an active curve to the bonding curve with the user's Token-2022 balance", async () => {
    const plan = tradeReadPlan({ mint, user });
    const chain: Chain = new Map();
    put(chain, mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(false));
    put(
      chain,
      associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID),
      tokenAccount(mint, user, 42n, TOKEN_2022_PROGRAM_ID),
    );
    const r = read(plan, chain);
    expect(r.venue).toBe("bonding_curve");
    if (r.venue !== "bonding_curve") return;
    expect(r.tokenProgram).toEqual(TOKEN_2022_PROGRAM_ID);
    expect(r.curve.virtualQuoteReserves).toBe(32_000_000_000n);
    expect(r.curve.isCashbackCoin).toBe(true);
    expect(r.curve.creator).toEqual(creator);
    expect(r.userAtaExists).toBe(true);
    expect(r.userTokenBalance).toBe(42n);
    expect(r.userTokenAccount).toEqual(associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID));
    expect(r.mintSupply).toBe(1_000_000_000_000_000n);
    expect(r.decimals).toBe(6);
    expect(r.userWsolExists).toBe(false);
  });

  it("decodes an account object once: a repeat read of the same objects shares the frozen states", async () => {
    const plan = tradeReadPlan({ mint, user });
    const chain: Chain = new Map();
    put(chain, mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(false));
    const first = read(plan, chain);
    const again = read(plan, chain);
    if (first.venue !== "bonding_curve" || again.venue !== "bonding_curve") throw new Error("not a curve");
    expect(again.curve).toBe(first.curve);
    expect(Object.isFrozen(first.curve)).toBe(true);
    // New bytes (the account changed) are decoded again.
    put(chain, bondingCurveAddress(mint), await curveAccount(false));
    const changed = read(plan, chain);
    if (changed.venue !== "bonding_curve") throw new Error("not a curve");
    expect(changed.curve).not.toBe(first.curve);
    expect(changed.curve).toEqual(first.curve);
  });

  it("uses the SPL Token ATA for a legacy mint and reports a missing ATA as zero", async () => {
    const plan = tradeReadPlan({ mint, user });
    const chain: Chain = new Map();
    put(chain, mint, mintAccount(TOKEN_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(false));
    // A Token-2022 account at the other address is not the user's account for an SPL mint.
    put(
      chain,
      associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID),
      tokenAccount(mint, user, 42n, TOKEN_2022_PROGRAM_ID),
    );
    const r = read(plan, chain);
    expect(r.tokenProgram).toEqual(TOKEN_PROGRAM_ID);
    expect(r.userAtaExists).toBe(false);
    expect(r.userTokenBalance).toBe(0n);
    expect(r.userTokenAccount).toEqual(associatedTokenAddress(user, mint, TOKEN_PROGRAM_ID));
  });

  it("routes a complete curve to its canonical pool with the vault reserves", async () => {
    const plan = tradeReadPlan({ mint, user });
    const pool = canonicalPoolAddress(mint);
    const chain: Chain = new Map();
    put(chain, mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(true));
    put(chain, pool, await poolAccount(pool));
    withPoolVaults(chain, pool, 206_900_000_000_000n, 84_990_359_561n);
    put(
      chain,
      associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID),
      tokenAccount(NATIVE_MINT, user, 0n, TOKEN_PROGRAM_ID),
    );
    const r = read(plan, chain);
    expect(r.venue).toBe("launchswap");
    if (r.venue !== "launchswap") return;
    expect(r.poolAddress).toEqual(pool);
    expect(r.poolReserves).toEqual({ base: 206_900_000_000_000n, quote: 84_990_359_561n });
    expect(r.pool.coinCreator).toEqual(creator);
    expect(r.poolDataLength).toBeGreaterThanOrEqual(300);
    expect(r.curve?.complete).toBe(true);
    expect(r.userWsolExists).toBe(true);
  });

  it("trades a pool-only mint (no curve) on the pool", async () => {
    const plan = tradeReadPlan({ mint, user });
    const pool = canonicalPoolAddress(mint);
    const chain: Chain = new Map();
    put(chain, mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, pool, await poolAccount(pool));
    withPoolVaults(chain, pool, 1n, 2n);
    const r = read(plan, chain);
    expect(r.venue).toBe("launchswap");
  });

  it("uses an explicit pool directly, even while the curve is active", async () => {
    const pool = key(77);
    const plan = tradeReadPlan({ mint, user, pool });
    const chain: Chain = new Map();
    put(chain, mint, mintAccount(TOKEN_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(false));
    put(chain, pool, await poolAccount(pool, { baseProgram: TOKEN_PROGRAM_ID }));
    withPoolVaults(chain, pool, 5n, 7n, TOKEN_PROGRAM_ID);
    const r = read(plan, chain);
    expect(r.venue).toBe("launchswap");
    if (r.venue !== "launchswap") return;
    expect(r.poolAddress).toEqual(pool);
    expect(r.poolReserves).toEqual({ base: 5n, quote: 7n });
    expect(r.curve).toBeNull();
  });
});

describe("interpretTradeRead errors", () => {
  it("mint not found", async () => {
    const chain = put(new Map(), bondingCurveAddress(mint), await curveAccount(false));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.mintNotFound);
  });

  it("mint not owned by a token program", async () => {
    const chain = put(new Map(), mint, mintAccount(LAUNCH_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(false));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.unsupportedMint);
  });

  it("not a launch token: no curve and no pool", () => {
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.notLaunchToken);
  });

  it("a curve-like account not owned by the launch program does not count", async () => {
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), { ...(await curveAccount(false)), owner: key(99) });
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.notLaunchToken);
  });

  it("a curve quoted in anything but SOL", async () => {
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(false, key(57)));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.curveNotSolQuoted);
    put(chain, bondingCurveAddress(mint), await curveAccount(false, NATIVE_MINT));
    expect(read(tradeReadPlan({ mint, user }), chain).venue).toBe("bonding_curve");
  });

  it("curve complete but not migrated yet", async () => {
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(true));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.notMigrated);
    // The window between completion and migration is a state the caller can test for.
    expect(() => read(tradeReadPlan({ mint, user }), chain)).toThrow(
      expect.objectContaining({ extra: { state: "awaiting_migration" } }),
    );
  });

  it("explicit pool not found", () => {
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    expectApiError(() => read(tradeReadPlan({ mint, user, pool: key(77) }), chain), LAUNCH.poolNotFound);
  });

  it("explicit pool not owned by the swap program, or not a pool", async () => {
    const pool = key(77);
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, pool, await poolAccount(pool, { owner: LAUNCH_PROGRAM_ID }));
    expectApiError(() => read(tradeReadPlan({ mint, user, pool }), chain), LAUNCH.notSwapPool);
    put(chain, pool, { ...(await curveAccount(false)), owner: LAUNCH_SWAP_PROGRAM_ID });
    expectApiError(() => read(tradeReadPlan({ mint, user, pool }), chain), LAUNCH.notSwapPool);
  });

  it("explicit pool not quoted in SOL", async () => {
    const pool = key(77);
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, pool, await poolAccount(pool, { quoteMint: key(55) }));
    expectApiError(() => read(tradeReadPlan({ mint, user, pool }), chain), LAUNCH.poolNotSolQuoted);
  });

  it("explicit pool whose base mint is another mint", async () => {
    const pool = key(77);
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, pool, await poolAccount(pool, { baseMint: key(56) }));
    expectApiError(() => read(tradeReadPlan({ mint, user, pool }), chain), LAUNCH.poolMintMismatch);
  });

  it("pool vaults that are not the pool's ATAs, or missing", async () => {
    const pool = canonicalPoolAddress(mint);
    const chain = put(new Map(), mint, mintAccount(TOKEN_2022_PROGRAM_ID));
    put(chain, bondingCurveAddress(mint), await curveAccount(true));
    // Pool written with SPL vault addresses while the mint is Token-2022.
    put(chain, pool, await poolAccount(pool, { baseProgram: TOKEN_PROGRAM_ID }));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.poolVaultsUnexpected);
    put(chain, pool, await poolAccount(pool));
    expectApiError(() => read(tradeReadPlan({ mint, user }), chain), LAUNCH.poolVaultsUnexpected);
  });

  it("refuses a read that does not line up with the plan", () => {
    const plan = tradeReadPlan({ mint, user });
    expect(() => interpretTradeRead(plan, [null])).toThrow(/accounts/);
  });
});
