/** settlementOf: what the chain's answer means for an open execution. */
import { describe, expect, it } from "vitest";
import type { SignatureStatus } from "../../../../src/chain/rpc-client.js";
import { LEGACY_EXPIRY_MS, settlementOf } from "../../../../src/domain/reconcile/rules.js";

const status = (
  confirmationStatus: SignatureStatus["confirmationStatus"],
  err: unknown = null,
): SignatureStatus => ({
  slot: 10,
  confirmations: null,
  err,
  confirmationStatus,
});
const base = { signatures: ["a", "b"], blockHeight: 100, lastValidBlockHeight: 150, ageMs: 1_000 };

describe("settlementOf", () => {
  it("confirmed or finalized only when every signature got there, the lower level wins", () => {
    expect(settlementOf({ ...base, statuses: [status("finalized"), status("finalized")] })).toEqual({
      status: "finalized",
      confirmationStatus: "finalized",
    });
    expect(settlementOf({ ...base, statuses: [status("finalized"), status("confirmed")] })).toEqual({
      status: "confirmed",
      confirmationStatus: "confirmed",
    });
    expect(settlementOf({ ...base, statuses: [status("confirmed"), status("processed")] })).toBeNull();
    expect(settlementOf({ ...base, statuses: [status("confirmed"), null] })).toBeNull();
  });

  it("any signature that landed with an error fails the execution, naming it", () => {
    const err = { InstructionError: [2, { Custom: 6002 }] };
    expect(settlementOf({ ...base, statuses: [status("confirmed"), status("processed", err)] })).toEqual({
      status: "failed",
      confirmationStatus: "processed",
      signature: "b",
      err,
    });
  });

  it("expired only when nothing landed and the block height passed the blockhash's last valid height", () => {
    expect(settlementOf({ ...base, statuses: [null, null] })).toBeNull();
    expect(settlementOf({ ...base, statuses: [null, null], blockHeight: 150 })).toBeNull();
    expect(settlementOf({ ...base, statuses: [null, null], blockHeight: 151 })).toEqual({
      status: "expired",
      confirmationStatus: null,
    });
    expect(settlementOf({ ...base, statuses: [status("confirmed"), null], blockHeight: 151 })).toBeNull();
  });

  it("records without a stored height expire by age", () => {
    const legacy = { ...base, statuses: [null, null], lastValidBlockHeight: null, blockHeight: 10_000 };
    expect(settlementOf({ ...legacy, ageMs: LEGACY_EXPIRY_MS })).toBeNull();
    expect(settlementOf({ ...legacy, ageMs: LEGACY_EXPIRY_MS + 1 })).toEqual({
      status: "expired",
      confirmationStatus: null,
    });
  });
});
