/**
 * Issue 29, finding 17: key names are shown in tables and the activity log, so a name must not pass for the
 * root key or hide or reorder text: no `root`, no control characters or line breaks, no bidi controls, no
 * zero-width characters.
 */
import { badRequest } from "../../core/errors.js";
import { CUSTODY } from "./texts.js";

/** The name texts (listed in docs/decisions.md, "Issue 29: key powers"). */
export const KEY_NAME = {
  reserved: 'name may not be "root" (the account\'s root key is named so)',
  characters:
    "name may not contain control characters, line breaks, bidirectional controls or zero-width characters",
} as const;

// C0/C1 controls (newlines and tabs included), the Unicode line and paragraph separators, bidi marks,
// embeddings, overrides and isolates, and the zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM).
const FORBIDDEN =
  /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/u;

/** The name a `POST /v1/keys` body gives, trimmed; 400 with a detail when it is missing, too long or refused. */
export function parseKeyName(v: unknown): string {
  if (typeof v !== "string" || v.trim() === "" || v.length > 64) throw badRequest(CUSTODY.nameInvalid);
  if (FORBIDDEN.test(v)) throw badRequest(KEY_NAME.characters);
  const name = v.trim();
  // NFKC folds look-alikes such as fullwidth letters ("ｒｏｏｔ") onto "root".
  if (name.normalize("NFKC").toLowerCase() === "root") throw badRequest(KEY_NAME.reserved);
  return name;
}
