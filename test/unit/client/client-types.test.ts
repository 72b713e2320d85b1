/** The committed client types must be what the generator makes of today's OpenAPI document. */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, generateClientTypes } from "../../../scripts/client-types.js";

describe("packages/client/src/generated/openapi.ts", () => {
  it("matches a fresh generation (run `npm run client:generate` after changing a route schema)", async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, "utf8");
    const fresh = await generateClientTypes();
    // toBe would print both 2,000-line files; a boolean with the hint is the useful failure.
    expect(committed === fresh, "the OpenAPI document changed: run `npm run client:generate`").toBe(true);
  });
});
