/** The JSON columns of an execution's insert: bigints as decimal text, other values as JSON.stringify writes them. */
import { describe, expect, it } from "vitest";
import { insertParams, INSERT_COLUMNS } from "../../../src/store/executions/execution-statements.js";
import type { NewExecution } from "../../../src/store/types.js";

const base = {
  id: "0b0c7f3e-1d6c-4c53-9d49-6f0d1d9a4a11",
  apiKeyId: 1,
  kind: "trade",
  wallet: "w",
  wallets: ["w"],
  signatures: ["s"],
  bundleId: null,
  status: "pending",
  confirmationStatus: null,
  response: null,
  error: null,
  timings: null,
  lastValidBlockHeight: null,
  idempotencyKey: null,
} as unknown as NewExecution;

const column = (e: NewExecution, name: (typeof INSERT_COLUMNS)[number]) =>
  insertParams(e, "2026-11-26 00:00:00")[INSERT_COLUMNS.indexOf(name)];

describe("execution JSON columns", () => {
  it("write bigints as decimal text, nested or not", () => {
    const e = { ...base, request: { amount: 5n, nested: [1n, { x: 18446744073709551615n }], s: "t" } };
    expect(column(e, "request")).toBe('{"amount":"5","nested":["1",{"x":"18446744073709551615"}],"s":"t"}');
  });

  it("write everything else as JSON.stringify does", () => {
    const request = { a: 1, b: "x", c: [true, null], d: undefined, e: new Date(0), f: { toJSON: () => "j" } };
    expect(column({ ...base, request }, "request")).toBe(JSON.stringify(request));
    expect(column({ ...base, request: undefined } as unknown as NewExecution, "request")).toBe("null");
  });

  it("throw on a cycle as before", () => {
    const request: Record<string, unknown> = { n: 1n };
    request.self = request;
    expect(() => column({ ...base, request }, "request")).toThrow(TypeError);
  });
});
