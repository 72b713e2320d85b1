/**
 * The stream's `ready`: a stream opened without a cursor fixes its starting point before it says so (the SSE
 * `: connected` line), so an execution written right after it is never skipped as "older than the start".
 */
import { describe, expect, it } from "vitest";
import { streamEvents } from "../../src/domain/events/stream.js";
import { openStore } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";

describe("event stream: ready before the first event", () => {
  it("yields ready first; an execution written right after ready is the stream's first event", async () => {
    const store = await openStore("sqlite::memory:", "./data");
    const abort = new AbortController();
    try {
      const { apiKey } = await store.createApiKeyWithWallet("hash-ready", {
        publicKey: "Wa11etReady11111111111111111111111",
        createdAt: "2026-01-01T00:00:00.000",
        ciphertext: "Y3Q=",
        nonce: "bm9uY2U=",
        tag: "dGFn",
        keyId: "k1",
      });
      // One event before the stream opens: not new, so not delivered.
      await store.insertExecution(newExecution(apiKey.id, "Wa11etReady11111111111111111111111"));
      const it = streamEvents(store, apiKey.id, { after: undefined, limit: 100 }, abort.signal, {
        pollMs: 50,
      });
      expect((await it.next()).value).toEqual({ kind: "ready" });
      const e = await store.insertExecution(newExecution(apiKey.id, "Wa11etReady11111111111111111111111"));
      const first = (await it.next()).value;
      expect(first).toMatchObject({ kind: "event", event: { id: 2, execution_id: e.id } });
      abort.abort();
      await it.return(undefined);
    } finally {
      await store.close();
    }
  });
});
