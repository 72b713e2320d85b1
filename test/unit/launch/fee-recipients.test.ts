/**
 * Fee and buyback recipients: picked from the set entries of Global's lists, which are filtered once per Global
 * object (issue 18) — so each Global object answers from its own lists, zero slots never count, and the random
 * source is read once per pick as before.
 */
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { curveBuybackRecipient, curveFeeRecipient } from "../../../src/launch/fee-recipients.js";
import type { LaunchGlobal } from "../../../src/launch/state.js";
import { key } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const globalOf = (base: number): LaunchGlobal =>
  ({
    feeRecipient: key(base),
    feeRecipients: [Z, key(base + 1), Z, key(base + 2), Z, Z, Z],
    reservedFeeRecipient: Z,
    reservedFeeRecipients: [key(base + 10), Z, Z, Z, Z, Z, Z],
    buybackFeeRecipients: [Z, Z, key(base + 20), Z, Z, Z, Z, key(base + 21)],
  }) as unknown as LaunchGlobal;

describe("curve fee recipients", () => {
  it("picks uniformly among the set entries of each Global's own lists", () => {
    for (const base of [100, 200]) {
      const global = globalOf(base);
      for (let round = 0; round < 2; round++) {
        expect(curveFeeRecipient(global, false, () => 0).equals(key(base))).toBe(true);
        expect(curveFeeRecipient(global, false, () => 0.5).equals(key(base + 1))).toBe(true);
        expect(curveFeeRecipient(global, false, () => 0.99).equals(key(base + 2))).toBe(true);
        expect(curveFeeRecipient(global, true, () => 0.99).equals(key(base + 10))).toBe(true);
        expect(curveBuybackRecipient(global, () => 0).equals(key(base + 20))).toBe(true);
        expect(curveBuybackRecipient(global, () => 0.6).equals(key(base + 21))).toBe(true);
      }
    }
  });

  it("refuses a Global whose list has no set entry", () => {
    const global = { ...globalOf(300), buybackFeeRecipients: Array<PublicKey>(8).fill(Z) } as LaunchGlobal;
    expect(() => curveBuybackRecipient(global, () => 0)).toThrow(
      "launch Global has no buyback fee recipient",
    );
    expect(curveFeeRecipient(global, false, () => 0).equals(key(300))).toBe(true);
  });
});
