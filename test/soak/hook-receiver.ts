/**
 * A webhook receiver for the soak's event scenarios: fails a seeded share of attempts, can be taken down (its
 * port closed, open connections cut) and brought back on the same port, and verifies every request's
 * signature with the `standardwebhooks` package (never with the service's own signing code).
 */
import { createServer, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { seededRandom } from "../helpers/seeded-random.js";

/** What the receiver saw. */
export interface ReceiverTally {
  /** Requests received (every attempt). */
  attempts: number;
  /** Attempts answered with an error on purpose. */
  refused: number;
  /** Signatures that `standardwebhooks` accepted / refused. */
  verified: number;
  badSignatures: number;
  /** Message ids (`webhook-id`) answered 2xx, with how often each. */
  delivered: Map<string, number>;
}

/** A running receiver. */
export interface SoakReceiver {
  readonly url: string;
  readonly tally: ReceiverTally;
  /** The endpoint's signing secret (`whsec_…`), set once the endpoint is created. */
  secret: string | undefined;
  /** Share of attempts answered 500 (seeded), 0 by default. */
  failShare: number;
  /** Answer each request after this many ms (a sender killed meanwhile holds the delivery's lease). */
  answerDelayMs: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port, kept across down/up). */
export async function startSoakReceiver(seed = 20): Promise<SoakReceiver> {
  const random = seededRandom(seed);
  const tally: ReceiverTally = {
    attempts: 0,
    refused: 0,
    verified: 0,
    badSignatures: 0,
    delivered: new Map(),
  };
  let server: Server | undefined;
  let port = 0;
  const r: SoakReceiver = {
    url: "",
    tally,
    secret: undefined,
    failShare: 0,
    answerDelayMs: 0,
    async down() {
      const s = server;
      server = undefined;
      if (s === undefined) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async up() {
      if (server !== undefined) return;
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          tally.attempts += 1;
          const body = Buffer.concat(chunks).toString("utf8");
          const headers = req.headers as Record<string, string>;
          try {
            new Webhook(r.secret ?? "").verify(body, headers);
            tally.verified += 1;
          } catch {
            tally.badSignatures += 1;
          }
          const fail = random() < r.failShare;
          const answer = (): void => {
            if (fail) {
              tally.refused += 1;
              res.writeHead(500).end();
              return;
            }
            const id = headers["webhook-id"] ?? "";
            tally.delivered.set(id, (tally.delivered.get(id) ?? 0) + 1);
            res.writeHead(204).end();
          };
          if (r.answerDelayMs > 0) setTimeout(answer, r.answerDelayMs);
          else answer();
        });
      });
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(port, "127.0.0.1", () => resolve());
      });
      const addr = s.address();
      if (addr === null || typeof addr === "string") throw new Error("no address");
      port = addr.port;
      server = s;
    },
    close: () => r.down(),
  };
  await r.up();
  (r as { url: string }).url = `http://127.0.0.1:${port}/hook`;
  return r;
}
