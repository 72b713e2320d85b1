/** bloXroute / NextBlock REST submit: body shape, auth header, errors, and the signature check. */
import { describe, expect, it } from "vitest";
import { createSubmitV2Client } from "../../../../src/chain/landing/submit-v2-client.js";
import { encodeBase58 } from "../../../../src/core/base58.js";
import type { FetchLike } from "../../../../src/chain/json-rpc.js";

const wire = new Uint8Array(100);
wire[0] = 1;
wire.fill(7, 1, 65);
const signature = encodeBase58(wire.subarray(1, 65));

function fakeFetch(
  status: number,
  body: string,
  seen: { url?: string; init?: Parameters<FetchLike>[1] },
): FetchLike {
  return async (url, init) => {
    seen.url = url;
    seen.init = init;
    return { status, text: async () => body };
  };
}

describe("submit-v2 client", () => {
  it("posts the base64 transaction with front-running protection and the auth header", async () => {
    const seen: { url?: string; init?: Parameters<FetchLike>[1] } = {};
    const client = createSubmitV2Client({
      url: "https://ny.example/api/v2/submit",
      timeoutMs: 1_000,
      headers: { Authorization: "key" },
      fetch: fakeFetch(200, JSON.stringify({ signature, uuid: "u" }), seen),
    });
    expect(await client.sendTransaction(wire)).toBe(signature);
    expect(seen.init!.headers).toMatchObject({ Authorization: "key", "content-type": "application/json" });
    expect(JSON.parse(seen.init!.body)).toEqual({
      transaction: { content: Buffer.from(wire).toString("base64") },
      frontRunningProtection: true,
      skipPreFlight: true,
    });
  });

  it("an HTTP error is an HttpError; another signature in the answer is refused; no signature is fine", async () => {
    const seen = {};
    await expect(
      createSubmitV2Client({
        url: "u",
        timeoutMs: 1_000,
        fetch: fakeFetch(429, "slow down", seen),
      }).sendTransaction(wire),
    ).rejects.toThrow("submit: HTTP 429: slow down");
    await expect(
      createSubmitV2Client({
        url: "u",
        timeoutMs: 1_000,
        fetch: fakeFetch(200, JSON.stringify({ signature: "other" }), seen),
      }).sendTransaction(wire),
    ).rejects.toThrow("another signature");
    expect(
      await createSubmitV2Client({
        url: "u",
        timeoutMs: 1_000,
        fetch: fakeFetch(200, "", seen),
      }).sendTransaction(wire),
    ).toBe(signature);
  });
});
