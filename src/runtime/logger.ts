/** The service logger: pino with every secret-bearing path redacted. */
import { pino, type DestinationStream, type Logger } from "pino";

/** Paths removed from every log line; request/response bodies are never logged, these are a second fence. */
const REDACT_PATHS = [
  'req.headers["x-api-key"]',
  'headers["x-api-key"]',
  'request.headers["x-api-key"]',
  "req.body",
  "res.body",
  "body",
  "api_key",
  "apiKey",
  "private_key_base58",
  "wallet_private_key",
  "secretKey",
  "masterKey",
  "previousMasterKeys",
  "MASTER_KEY",
  "PREVIOUS_MASTER_KEYS",
  "*.api_key",
  "*.apiKey",
  "*.private_key_base58",
  "*.wallet_private_key",
  "*.secretKey",
  "*.masterKey",
  "*.previousMasterKeys",
  "*.MASTER_KEY",
  "*.PREVIOUS_MASTER_KEYS",
  // A URL that failed to parse keeps the whole string in `input` (a database URL with its password).
  "err.input",
  "*.connectionString",
];

/** The request fields Fastify's request lines need; `url` as the framework passes it (with its query). */
interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  routeOptions?: { url?: string };
}

/**
 * A request as logged: method, matched route pattern and path, never the query string (a key or token sent
 * as `?api_key=` would otherwise land in the log).
 */
export function requestLogFields(req: LoggedRequest): Record<string, string | undefined> {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  return {
    method: req.method,
    route: req.routeOptions?.url,
    path: q >= 0 ? url.slice(0, q) : url,
    remoteAddress: req.ip,
  };
}

/** Builds the logger at `level`; `stream` lets tests capture the output. */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    serializers: { req: requestLogFields },
  };
  return stream === undefined ? pino(options) : pino(options, stream);
}
