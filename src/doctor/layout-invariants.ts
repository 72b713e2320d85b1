/**
 * Plausibility rules for the decoded launch configuration accounts. A decoder that reads a changed layout
 * often "succeeds" with shifted fields; these rules turn that into a loud failure. Each returns the list of
 * broken rules (empty = plausible).
 */
import { PublicKey } from "@solana/web3.js";
import type { LaunchFeeConfig, LaunchGlobal, SwapFeeConfig, SwapGlobalConfig } from "../launch/state.js";

const MAX_BPS = 10_000n;

function bps(problems: string[], name: string, v: bigint): void {
  if (v < 0n || v > MAX_BPS) problems.push(`${name} = ${v} is not a basis-point figure`);
}

/** launch Global: initialized, fee rates in bps, reserves ordered, a fee recipient set. */
export function globalProblems(g: LaunchGlobal): string[] {
  const p: string[] = [];
  if (g.initialized !== true) p.push("initialized is false");
  bps(p, "feeBasisPoints", g.feeBasisPoints);
  bps(p, "creatorFeeBasisPoints", g.creatorFeeBasisPoints);
  if (g.tokenTotalSupply <= 0n) p.push("tokenTotalSupply is 0");
  if (g.initialRealTokenReserves <= 0n || g.initialRealTokenReserves > g.tokenTotalSupply) {
    p.push("initialRealTokenReserves is outside (0, tokenTotalSupply]");
  }
  if (g.initialVirtualTokenReserves <= g.initialRealTokenReserves) {
    p.push("initialVirtualTokenReserves is not above initialRealTokenReserves");
  }
  if (g.initialVirtualSolReserves <= 0n) p.push("initialVirtualSolReserves is 0");
  if (g.feeRecipient.equals(PublicKey.default)) p.push("feeRecipient is unset");
  return p;
}

type Fees = { lpFeeBps: bigint; protocolFeeBps: bigint; creatorFeeBps: bigint };

function feesProblems(p: string[], where: string, f: Fees): void {
  bps(p, `${where}.lpFeeBps`, f.lpFeeBps);
  bps(p, `${where}.protocolFeeBps`, f.protocolFeeBps);
  bps(p, `${where}.creatorFeeBps`, f.creatorFeeBps);
}

/** Either FeeConfig: flat fees and every tier in bps, tier thresholds ascending. */
export function feeConfigProblems(c: LaunchFeeConfig | SwapFeeConfig): string[] {
  const p: string[] = [];
  feesProblems(p, "flatFees", c.flatFees);
  let last = -1n;
  c.feeTiers.forEach((t, i) => {
    feesProblems(p, `feeTiers[${i}]`, t.fees);
    if (t.marketCapLamportsThreshold < last) p.push(`feeTiers[${i}] threshold is not ascending`);
    last = t.marketCapLamportsThreshold;
  });
  return p;
}

/** swap GlobalConfig: fee rates in bps and at least one protocol fee recipient. */
export function swapGlobalConfigProblems(c: SwapGlobalConfig): string[] {
  const p: string[] = [];
  bps(p, "lpFeeBasisPoints", c.lpFeeBasisPoints);
  bps(p, "protocolFeeBasisPoints", c.protocolFeeBasisPoints);
  bps(p, "coinCreatorFeeBasisPoints", c.coinCreatorFeeBasisPoints);
  if (c.protocolFeeRecipients.every((k) => k.equals(PublicKey.default))) p.push("no protocol fee recipient");
  return p;
}
