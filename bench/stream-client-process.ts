/**
 * The stream-following client of bench/orders-trigger.ts in a process of its own, as an operator's bot runs beside
 * the service on the same machine (`node --import tsx bench/stream-client-process.ts`, started by the bench with an
 * IPC channel). Per round the bench sends `arm` (the service's address, the key, the mint); the client opens
 * /v1/stream, subscribes to the mint's trades and answers `armed`; the bench then sends `level` (the spot price
 * read after the subscription, as the in-process client reads it) and crosses it; the client posts its sell on the
 * first trade over the level and answers `done` with the status. Imports nothing from `src/`.
 */
import WebSocket from "ws";
import { crossesLevel, postSell, type ArmedLevel } from "./stream-client-rule.js";

/** What the bench sends. */
export type ToClient =
  | { type: "arm"; base: string; apiKey: string; mint: string }
  | { type: "level"; sol: string; tokens: string }
  | { type: "close" };

/** What the client answers. */
export type FromClient = { mint: string } & (
  { type: "armed" } | { type: "done"; status: number } | { type: "error"; message: string }
);

let ws: WebSocket | undefined;
let level: ArmedLevel | null = null;

const answer = (m: FromClient): void => void process.send?.(m);

function arm(base: string, apiKey: string, mint: string): void {
  ws?.close();
  level = null;
  let fired = false;
  const socket = new WebSocket(`ws://${base}/v1/stream`, { headers: { "x-api-key": apiKey } });
  ws = socket;
  socket.on("error", (e) => answer({ mint, type: "error", message: e.message }));
  socket.on("open", () => socket.send(JSON.stringify({ method: "subscribeTokenTrade", keys: [mint] })));
  socket.on("message", (d: WebSocket.RawData) => {
    const m = JSON.parse(d.toString()) as { type: string };
    if (m.type === "subscribed") return answer({ mint, type: "armed" });
    if (fired || level === null || !crossesLevel(m, mint, level)) return;
    fired = true;
    postSell(base, apiKey, mint).then(
      (status) => answer({ mint, type: "done", status }),
      (e: unknown) => answer({ mint, type: "error", message: String(e) }),
    );
  });
}

process.on("message", (m: ToClient) => {
  if (m.type === "arm") arm(m.base, m.apiKey, m.mint);
  else if (m.type === "level") level = { sol: BigInt(m.sol), tokens: BigInt(m.tokens) };
  else {
    ws?.close();
    process.disconnect?.();
  }
});
