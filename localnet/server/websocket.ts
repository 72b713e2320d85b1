/** A minimal RFC 6455 WebSocket server side (text frames, ping/pong, close) over a node:http upgrade. */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** One accepted WebSocket connection. */
export interface WsConnection {
  send(text: string): void;
  close(): void;
  onMessage(handler: (text: string) => void): void;
  onClose(handler: () => void): void;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  let header: Buffer;
  if (len < 126) header = Buffer.from([0x80 | opcode, len]);
  else if (len < 65536) {
    header = Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    header[1] = 126;
    header.writeUInt16BE(len, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([header, payload]);
}

/** Completes the handshake and returns the connection, or null (socket destroyed) when it is not a WebSocket request. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex): WsConnection | null {
  const key = req.headers["sec-websocket-key"];
  if (typeof key !== "string" || (req.headers.upgrade ?? "").toLowerCase() !== "websocket") {
    socket.destroy();
    return null;
  }
  const accept = createHash("sha1")
    .update(key + GUID)
    .digest("base64");
  socket.write(
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  const messageHandlers: ((text: string) => void)[] = [];
  const closeHandlers: (() => void)[] = [];
  let buffered = Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let closed = false;

  const finish = () => {
    if (closed) return;
    closed = true;
    for (const h of closeHandlers) h();
  };
  const write = (b: Buffer) => {
    if (!closed && socket.writable) socket.write(b);
  };

  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.length < 2) return;
      const b0 = buffered[0]!;
      const b1 = buffered[1]!;
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buffered.length < 4) return;
        len = buffered.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buffered.length < 10) return;
        len = Number(buffered.readBigUInt64BE(2));
        off = 10;
      }
      if (len > MAX_MESSAGE_BYTES) {
        socket.destroy();
        finish();
        return;
      }
      const masked = (b1 & 0x80) !== 0;
      const maskOff = off;
      if (masked) off += 4;
      if (buffered.length < off + len) return;
      const payload = Buffer.from(buffered.subarray(off, off + len));
      if (masked) for (let i = 0; i < len; i++) payload[i]! ^= buffered[maskOff + (i % 4)]!;
      buffered = buffered.subarray(off + len);
      const opcode = b0 & 0x0f;
      const fin = (b0 & 0x80) !== 0;
      if (opcode === 0x8) {
        write(frame(0x8, Buffer.alloc(0)));
        socket.end();
        finish();
        return;
      }
      if (opcode === 0x9) write(frame(0xa, payload));
      else if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(payload);
        if (fin) {
          const text = Buffer.concat(fragments).toString("utf8");
          fragments = [];
          for (const h of messageHandlers) h(text);
        }
      }
    }
  });
  socket.on("close", finish);
  socket.on("error", finish);
  return {
    send: (text) => write(frame(0x1, Buffer.from(text, "utf8"))),
    close: () => {
      write(frame(0x8, Buffer.alloc(0)));
      socket.end();
      finish();
    },
    onMessage: (h) => messageHandlers.push(h),
    onClose: (h) => closeHandlers.push(h),
  };
}
