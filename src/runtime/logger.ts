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
];

/** Builds the logger at `level`; `stream` lets tests capture the output. */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } };
  return stream === undefined ? pino(options) : pino(options, stream);
}
