/**
 * The market stream (GET /v1/stream, a WebSocket): authenticated by a first `auth` message, since a browser
 * cannot set headers on a WebSocket and the key must not go in its URL.
 */

/** A decoded market event or a reply (subscribed, error…), as the server sends it. */
export type MarketMessage = Record<string, unknown> & { type: string };

/** Opens the stream; `send` queues until authenticated. Returns the controls. */
export function openMarket(
  key: string,
  onMessage: (m: MarketMessage) => void,
  onState: (s: string) => void,
): { send(msg: Record<string, unknown>): void; close(): void } {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/v1/stream`);
  const queue: string[] = [];
  let ready = false;
  onState("connecting");
  ws.onopen = () => ws.send(JSON.stringify({ method: "auth", api_key: key }));
  ws.onmessage = (m) => {
    const msg = JSON.parse(String(m.data)) as MarketMessage;
    if (msg.type === "authenticated") {
      ready = true;
      onState("live");
      for (const q of queue.splice(0)) ws.send(q);
      return;
    }
    onMessage(msg);
  };
  ws.onclose = (e) => onState(`closed (${e.code}${e.reason !== "" ? `: ${e.reason}` : ""})`);
  return {
    send(msg) {
      const text = JSON.stringify(msg);
      if (ready) ws.send(text);
      else queue.push(text);
    },
    close: () => ws.close(),
  };
}
