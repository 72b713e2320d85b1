/** Test cleanup for web3.js Connections that used the localnet's PubSub. */
import type { Connection } from "@solana/web3.js";

/**
 * Closes the Connection's WebSocket with a normal close, so it does not reconnect (and print `ws error:
 * ECONNREFUSED` every second in later test files of the same worker) once the localnet is gone.
 */
export function closeWeb3Socket(conn: Connection): void {
  // web3.js keeps the socket private and offers no close; the field is stable across 1.x.
  const socket = (conn as unknown as { _rpcWebSocket?: { reconnect: boolean; close(code?: number): void } })
    ._rpcWebSocket;
  if (socket === undefined) return;
  // A reconnect already scheduled (the server dropped the socket) still runs once; it stops after that.
  socket.reconnect = false;
  socket.close(1000);
}
