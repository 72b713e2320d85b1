/** The e2e harness registered on the test file's hooks (kept apart from e2e.ts, which the benchmark imports). */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startE2e, type E2e, type E2eOptions } from "./e2e.js";

/**
 * Registers the usual hooks (start before all, close after all, reset before each) and returns the harness.
 * Its fields are filled in by beforeAll, so use it only inside tests and hooks.
 */
export function useE2e(options: E2eOptions = {}): E2e {
  const e2e = {} as E2e;
  beforeAll(async () => {
    Object.assign(e2e, await startE2e(options));
  });
  afterAll(async () => {
    if ("close" in e2e) await e2e.close();
  });
  beforeEach(() => e2e.reset());
  return e2e;
}
