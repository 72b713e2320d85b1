/**
 * A PubSub (WebSocket JSON-RPC) endpoint that answers every request with an error, for tests whose other
 * upstreams are closed ports: the doctor's PubSub check fails at once on a refused subscription, where a closed
 * port leaves it waiting its whole timeout (2 s at least) for a connection.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";

export interface RefusingPubSub {
  /** `ws://127.0.0.1:<port>/`, for RPC_WS_URL. */
  url: string;
  close(): Promise<void>;
}

export async function startRefusingPubSub(): Promise<RefusingPubSub> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (ws) =>
    ws.on("message", (data: Buffer) => {
      const { id } = JSON.parse(data.toString()) as { id: number };
      ws.send(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "refused" } }));
    }),
  );
  await once(server, "listening");
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      for (const c of server.clients) c.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
