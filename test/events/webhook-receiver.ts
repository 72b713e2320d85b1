/** A local webhook receiver for tests: records every request, answers what the test tells it to. */
import { createServer, type IncomingHttpHeaders } from "node:http";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer for the n-th request (0-based); default 200. */
  answer: (n: number, r: Received) => number | { status: number; location: string };
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: "",
    received,
    answer: () => 200,
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "" };
      received.push(r);
      const a = receiver.answer(received.length - 1, r);
      if (typeof a === "number") res.writeHead(a).end();
      else res.writeHead(a.status, { location: a.location }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("no address");
  receiver.url = `http://127.0.0.1:${addr.port}/hook`;
  return receiver;
}
