/** Transfers to builtin programs, sysvars and the service's own programs are refused before signing (issue 9.5). */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { isAddress } from "../../../../src/core/addresses.js";
import { parseConsolidateRequest } from "../../../../src/domain/sol/consolidate-request.js";
import { ApiError, SPEC, SOL_RULES } from "../../../../src/core/errors.js";
import {
  isReservedAddress,
  RUNTIME_RESERVED_ADDRESSES,
} from "../../../../src/domain/sol/reserved-addresses.js";
import { parseSplitRequest } from "../../../../src/domain/sol/split-request.js";
import { parseTransferRequest } from "../../../../src/domain/sol/transfer-request.js";
import { LAUNCH_PROGRAM_ID, SPL_TOKEN_PROGRAM_ID, WSOL_MINT } from "../../../../src/launch/programs.js";

/** The detail of the 400 `fn` throws. */
function detailOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return e.detail;
    throw e;
  }
  throw new Error("no error thrown");
}

const reserved = [
  ...RUNTIME_RESERVED_ADDRESSES,
  SPL_TOKEN_PROGRAM_ID.toBase58(),
  WSOL_MINT.toBase58(),
  LAUNCH_PROGRAM_ID.toBase58(),
];

describe("reserved addresses", () => {
  it("every listed runtime address is a valid 32-byte address", () => {
    for (const a of RUNTIME_RESERVED_ADDRESSES) expect(isAddress(a), a).toBe(true);
    expect(new Set(RUNTIME_RESERVED_ADDRESSES).size).toBe(RUNTIME_RESERVED_ADDRESSES.length);
  });

  it("transfer, consolidate and split refuse them as destinations with a 400", () => {
    for (const a of reserved) {
      expect(isReservedAddress(a)).toBe(true);
      expect(detailOf(() => parseTransferRequest({ destination_wallet: a, amount: "0.1" }))).toBe(
        SOL_RULES.destinationReserved,
      );
      expect(detailOf(() => parseConsolidateRequest({ destination_wallet: a }))).toBe(
        SOL_RULES.destinationReserved,
      );
      expect(
        detailOf(() =>
          parseSplitRequest({
            destinations: [{ wallet: Keypair.generate().publicKey.toBase58() }, { wallet: a }],
          }),
        ),
      ).toBe(SOL_RULES.splitDestinationReserved);
    }
  });

  it("ordinary addresses pass", () => {
    const a = Keypair.generate().publicKey.toBase58();
    expect(isReservedAddress(a)).toBe(false);
    expect(parseTransferRequest({ destination_wallet: a, amount: "0.1" }).destination).toBe(a);
    expect(parseConsolidateRequest({ destination_wallet: a }).destination).toBe(a);
  });

  it("leaves the spec's own texts first when a body has a spec-listed fault too", () => {
    const a = RUNTIME_RESERVED_ADDRESSES[0]!;
    expect(detailOf(() => parseConsolidateRequest({ destination_wallet: a, source_wallets: [a] }))).toBe(
      SPEC.consolidate.destinationIsSource,
    );
    expect(
      detailOf(() => parseSplitRequest({ destinations: [{ wallet: a, sol: "0.1", percent: "10" }] })),
    ).toBe(SPEC.split.percentOrSol);
    expect(detailOf(() => parseTransferRequest({ destination_wallet: a, amount: "0.1", mint: "xyz" }))).toBe(
      SPEC.transfer.invalidMint,
    );
  });
});
