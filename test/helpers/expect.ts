/** Assertion helpers for the domain's typed errors (ApiError carries the spec's exact `detail`). */
import { expect } from "vitest";
import { ApiError } from "../../src/core/errors.js";

/** The ApiError `fn` throws, or undefined when it returns; any other error is rethrown. */
export function apiErrorOf(fn: () => unknown): ApiError | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  return undefined;
}

/** The `detail` of the ApiError `fn` throws, or undefined when it returns; any other error is rethrown. */
export const detailOf = (fn: () => unknown): string | undefined => apiErrorOf(fn)?.detail;

/** The `detail` of the 400 `fn` must throw (fails the test on a return, another status or another error). */
export function badRequestDetailOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).detail;
  }
  throw new Error("expected a 400");
}
