/** One pass over a JSON body's text: its nesting depth, a repeated key, and whether any key is `__proto__`. */

interface Frame {
  keys: Set<string> | null; // null: an array
  expectKey: boolean;
}

/** The body opens more than the allowed number of arrays/objects at once (the scan stops there). */
export const SCAN_TOO_DEEP = 1;
/** Some object names one key twice (keys compare after unescaping: `"\u0061"` is `"a"`). */
export const SCAN_DUPLICATE_KEY = 2;
/** Some object has a key `__proto__` (after unescaping). */
export const SCAN_PROTO_KEY = 4;

/**
 * Scans `text` once and returns the SCAN_* flags it found. Depth counts every bracket outside a string, so it
 * is meaningful for any text; the key flags are only meaningful when `text` is valid JSON (the caller parses
 * it before reading them). Brackets, commas and quotes inside strings never count.
 */
export function scanJson(text: string, maxDepth: number): number {
  let flags = 0;
  // Kept apart from the stack: on invalid text a closer without its opener lowers the depth (it may go
  // below zero), and the depth rule has always counted that way.
  let depth = 0;
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: scan to its closing quote.
      const start = i + 1;
      let escaped = false;
      i += 1;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === 0x22) break;
        i += 1;
      }
      const top = stack[stack.length - 1];
      if (top?.keys != null && top.expectKey) {
        const key = escaped ? unescapeKey(text.slice(start, i)) : text.slice(start, i);
        if (key === "__proto__") flags |= SCAN_PROTO_KEY;
        if (top.keys.has(key)) flags |= SCAN_DUPLICATE_KEY;
        else top.keys.add(key);
        top.expectKey = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return flags | SCAN_TOO_DEEP;
      stack.push(c === 0x7b ? { keys: new Set(), expectKey: true } : { keys: null, expectKey: false });
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.keys != null) top.expectKey = true;
    }
  }
  return flags;
}

/** A key's text with its escapes decoded; the raw text when it does not decode (the body is then not JSON). */
function unescapeKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Whether any object in `text` (valid JSON) repeats a key; keys compare after unescaping (`"\u0061"` is `"a"`). */
export function hasDuplicateKey(text: string): boolean {
  return (scanJson(text, Infinity) & SCAN_DUPLICATE_KEY) !== 0;
}
