/** The JSON request-body parser: empty means "no fields", malformed or over-deep JSON is a fixed 400. */
import { ApiError, FOUNDATION, HARDENING, HTTP_INPUT } from "../core/errors.js";
import { hasDuplicateKey } from "./json-duplicate-keys.js";

/**
 * Deepest nesting a body may have (the deepest the API reads is 3: a bundle's legs). Deeper bodies are refused
 * before parsing: code that walks a body recursively (the idempotency fingerprint) would overflow the stack.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether `text` opens more than `max` arrays/objects at once (brackets inside strings do not count). */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * Parses a request body; undefined for an empty one; `__proto__` keys are dropped; an object that repeats a
 * key is refused (JSON.parse would keep the last value silently). Throws a 400 ApiError.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  if (nestedDeeperThan(text, MAX_BODY_DEPTH)) throw new ApiError(400, HTTP_INPUT.nestedTooDeep);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (k, v: unknown) => (k === "__proto__" ? undefined : v));
  } catch {
    throw new ApiError(400, FOUNDATION.invalidJson);
  }
  if (hasDuplicateKey(text)) throw new ApiError(400, HARDENING.duplicateKey);
  return parsed;
}
