/**
 * Issue 30: `lasertrade buy` stayed alive after "not confirmed within 30 s" until the execution was final,
 * because stopping the events stream did not stop its request. On Node 20 a `new Request(url, { signal })`
 * follows the caller's signal through a weak reference: once the Request object is garbage collected (a
 * 30 s wait is long enough), aborting no longer reaches the fetch. The stream must hand the signal to
 * fetch itself. The fake fetch below honours only the signal fetch is given, as undici does after that GC.
 */
import { describe, expect, it } from "vitest";
import { eventStream } from "../../../packages/client/src/events.js";

describe("events stream abort", () => {
  it("stops its request when the caller aborts, through the signal given to fetch", async () => {
    let given: AbortSignal | undefined;
    const fetch = (_input: Request, init?: RequestInit): Promise<Response> => {
      given = init?.signal ?? undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(": heartbeat\n\n"));
          given?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
        },
      });
      return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    };
    const abort = new AbortController();
    const stream = eventStream({ baseUrl: "http://x", apiKey: "k", fetch }, {}, { signal: abort.signal });
    const next = stream.next();
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    const outcome = await Promise.race([
      next.then(() => "stopped"),
      new Promise((r) => setTimeout(() => r("still reading"), 500)),
    ]);
    expect(outcome).toBe("stopped");
    expect(given).toBe(abort.signal);
  });
});
