/** The JSON request-body parser: empty means "no fields", malformed or over-deep JSON is a fixed 400. */
import { ApiError, FOUNDATION, HARDENING, HTTP_INPUT } from "../../core/errors.js";
import { SCAN_DUPLICATE_KEY, SCAN_PROTO_KEY, SCAN_TOO_DEEP, scanJson } from "./json-scan.js";

/**
 * Deepest nesting a body may have (the deepest the API reads is 3: a bundle's legs). Deeper bodies are refused
 * before parsing: code that walks a body recursively (the idempotency fingerprint) would overflow the stack.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Parses a request body; undefined for an empty one; `__proto__` keys are dropped; an object that repeats a
 * key is refused (JSON.parse would keep the last value silently). Throws a 400 ApiError.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  // One pass finds the depth, a repeated key and a `__proto__` key; the errors keep their order (depth before
  // the JSON's own validity, a repeated key after it).
  const scan = scanJson(text, MAX_BODY_DEPTH);
  if ((scan & SCAN_TOO_DEEP) !== 0) throw new ApiError(400, HTTP_INPUT.nestedTooDeep);
  let parsed: unknown;
  try {
    // The reviver only drops `__proto__` keys; without one it would be called for every value (about 2 µs of
    // a trade body's 3), so it runs only when the scan saw such a key.
    parsed =
      (scan & SCAN_PROTO_KEY) !== 0
        ? JSON.parse(text, (k, v: unknown) => (k === "__proto__" ? undefined : v))
        : JSON.parse(text);
  } catch {
    throw new ApiError(400, FOUNDATION.invalidJson);
  }
  if ((scan & SCAN_DUPLICATE_KEY) !== 0) throw new ApiError(400, HARDENING.duplicateKey);
  return parsed;
}
