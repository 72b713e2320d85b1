/**
 * Issue 29, finding 17: the localnet's PubSub WebSocket takes the HTTP side's rule (a loopback Host only) and
 * refuses a foreign Origin, so neither a web page nor a rebound DNS name can subscribe through a browser.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startLocalnet, type LocalnetHandle } from "../../localnet/index.js";

let localnet: LocalnetHandle;
beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 0 });
});
afterAll(async () => {
  await localnet?.close();
});

/** The upgrade's outcome: "open", or the status of a refused upgrade. */
function upgrade(options: WebSocket.ClientOptions): Promise<"open" | number> {
  const ws = new WebSocket(localnet.wsUrl, options);
  return new Promise((resolve, reject) => {
    ws.once("open", () => {
      ws.close();
      resolve("open");
    });
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("error", reject);
  });
}

describe("localnet PubSub: loopback Host and Origin only", () => {
  it("accepts a loopback Host without Origin (SDK clients) and with a loopback Origin", async () => {
    expect(await upgrade({})).toBe("open");
    expect(await upgrade({ origin: "http://localhost:3000" })).toBe("open");
    expect(await upgrade({ origin: "http://127.0.0.1:8080" })).toBe("open");
  });

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin (a web page) with 403", async () => {
    expect(await upgrade({ headers: { host: "attacker.example" } })).toBe(403);
    expect(await upgrade({ origin: "https://attacker.example" })).toBe(403);
    expect(await upgrade({ origin: "null" })).toBe(403);
    // Nothing was attached.
    expect(localnet.admin.pubsubCounts().connections).toBe(0);
  });
});
