/** The doctor's pure rules: genesis hash per CLUSTER, plausibility of decoded launch configs, the line format. */
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { fail, formatResult, ok, warn } from "../../../src/doctor/check.js";
import { GENESIS_HASHES, judgeGenesis } from "../../../src/doctor/cluster-check.js";
import {
  feeConfigProblems,
  globalProblems,
  swapGlobalConfigProblems,
} from "../../../src/doctor/layout-invariants.js";
import type { LaunchFeeConfig, LaunchGlobal, SwapGlobalConfig } from "../../../src/launch/state.js";

const someKey = Keypair.generate().publicKey;

// Only the fields the rules read; the rest of the decoded account does not matter to them.
const global = (over: Partial<LaunchGlobal> = {}): LaunchGlobal =>
  ({
    initialized: true,
    feeBasisPoints: 95n,
    creatorFeeBasisPoints: 30n,
    tokenTotalSupply: 1_000_000_000_000_000n,
    initialRealTokenReserves: 793_100_000_000_000n,
    initialVirtualTokenReserves: 1_073_000_000_000_000n,
    initialVirtualSolReserves: 30_000_000_000n,
    feeRecipient: someKey,
    ...over,
  }) as LaunchGlobal;

const fees = (lp: bigint, protocol: bigint, creator: bigint) => ({
  lpFeeBps: lp,
  protocolFeeBps: protocol,
  creatorFeeBps: creator,
});

describe("judgeGenesis", () => {
  it("pins mainnet and devnet, names RPC_URL and CLUSTER on a mismatch", () => {
    expect(judgeGenesis("mainnet", GENESIS_HASHES.mainnet).status).toBe("ok");
    expect(judgeGenesis("devnet", GENESIS_HASHES.devnet).status).toBe("ok");
    const wrong = judgeGenesis("mainnet", GENESIS_HASHES.devnet);
    expect(wrong.status).toBe("fail");
    expect(wrong.detail).toContain("(devnet)");
    expect(wrong.detail).toContain("check RPC_URL and CLUSTER");
    expect(judgeGenesis("devnet", "Other1111111111111111111111111111111111111").detail).toContain(
      "not a public cluster",
    );
  });

  it("localnet must not be a public cluster; custom is not pinned", () => {
    expect(judgeGenesis("localnet", "LocaLnet1111111111111111111111111111111111111").status).toBe("ok");
    expect(judgeGenesis("localnet", GENESIS_HASHES.mainnet).status).toBe("fail");
    expect(judgeGenesis("custom", GENESIS_HASHES.testnet).status).toBe("ok");
  });
});

describe("plausibility of decoded configs", () => {
  it("accepts a mainnet-like Global and names each broken rule", () => {
    expect(globalProblems(global())).toEqual([]);
    expect(globalProblems(global({ initialized: false }))).toEqual(["initialized is false"]);
    expect(globalProblems(global({ feeBasisPoints: 1_000_000_000_000_000n }))[0]).toContain(
      "feeBasisPoints = 1000000000000000",
    );
    expect(globalProblems(global({ initialVirtualTokenReserves: 1n }))).toEqual([
      "initialVirtualTokenReserves is not above initialRealTokenReserves",
    ]);
    expect(globalProblems(global({ feeRecipient: PublicKey.default }))).toEqual(["feeRecipient is unset"]);
    expect(globalProblems(global({ tokenTotalSupply: 0n }))).toHaveLength(2);
  });

  it("checks fee tiers in bps and ascending", () => {
    const config = (tiers: [bigint, ReturnType<typeof fees>][], flat = fees(0n, 95n, 30n)) =>
      ({
        flatFees: flat,
        feeTiers: tiers.map(([t, f]) => ({ marketCapLamportsThreshold: t, fees: f })),
      }) as unknown as LaunchFeeConfig;
    expect(
      feeConfigProblems(
        config([
          [0n, fees(0n, 95n, 30n)],
          [420_000_000_000n, fees(0n, 5n, 95n)],
        ]),
      ),
    ).toEqual([]);
    expect(feeConfigProblems(config([], fees(0n, 10_001n, 0n)))).toEqual([
      "flatFees.protocolFeeBps = 10001 is not a basis-point figure",
    ]);
    expect(
      feeConfigProblems(
        config([
          [5n, fees(0n, 1n, 1n)],
          [1n, fees(0n, 1n, 1n)],
        ]),
      ),
    ).toEqual(["feeTiers[1] threshold is not ascending"]);
  });

  it("checks the swap GlobalConfig's rates and recipients", () => {
    const gc = (over: Record<string, unknown>) =>
      ({
        lpFeeBasisPoints: 25n,
        protocolFeeBasisPoints: 5n,
        coinCreatorFeeBasisPoints: 5n,
        protocolFeeRecipients: [someKey, PublicKey.default],
        ...over,
      }) as unknown as SwapGlobalConfig;
    expect(swapGlobalConfigProblems(gc({}))).toEqual([]);
    expect(swapGlobalConfigProblems(gc({ protocolFeeRecipients: [PublicKey.default] }))).toEqual([
      "no protocol fee recipient",
    ]);
    expect(swapGlobalConfigProblems(gc({ lpFeeBasisPoints: 20_000n }))).toHaveLength(1);
  });
});

describe("formatResult", () => {
  it("prints one aligned line per check", () => {
    expect(formatResult(ok("rpc-cluster", "fine"))).toBe("ok   rpc-cluster            fine");
    expect(formatResult(warn("lookup-table", "x"))).toMatch(/^WARN lookup-table {11}x$/);
    expect(formatResult(fail("relay a", "down"))).toMatch(/^FAIL relay a {16}down$/);
  });
});
