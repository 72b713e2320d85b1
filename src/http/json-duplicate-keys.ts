/** Finds an object that names one key twice in a JSON text (already known to be valid JSON). */

interface Frame {
  keys: Set<string> | null; // null: an array
  expectKey: boolean;
}

/** Whether any object in `text` (valid JSON) repeats a key; keys compare after unescaping (`"\u0061"` is `"a"`). */
export function hasDuplicateKey(text: string): boolean {
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
        const raw = text.slice(start, i);
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) return true;
        top.keys.add(key);
        top.expectKey = false;
      }
    } else if (c === 0x7b) stack.push({ keys: new Set(), expectKey: true });
    else if (c === 0x5b) stack.push({ keys: null, expectKey: false });
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.keys != null) top.expectKey = true;
    }
  }
  return false;
}
