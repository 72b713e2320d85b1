/** The 503 every execution route answers on an app built without chain access. */
import { expect } from "vitest";
import { EXECUTION } from "../../src/core/errors.js";
import { buildTestApp } from "./app.js";

/** Asserts 503 {detail: chain unavailable} for `POST url` with a valid key on a fresh app without a chain. */
export async function expectChainUnavailable(
  url: string,
  payload: Record<string, unknown> = {},
): Promise<void> {
  const t = await buildTestApp();
  try {
    const { apiKey } = await t.setup();
    const res = await t.app.inject({ method: "POST", url, headers: { "x-api-key": apiKey }, payload });
    expect(res.statusCode, url).toBe(503);
    expect(res.json(), url).toEqual({
      detail: EXECUTION.chainUnavailable,
      code: "execution.chain_unavailable",
    });
  } finally {
    await t.close();
  }
}
