/**
 * Where the API key lives in the browser: in memory, and in this tab's sessionStorage when the operator asks
 * for it to survive a reload. Never a cookie and never localStorage (both outlive the tab); never logged.
 */
const SLOT = "lasertrade.console.key";

/** The key kept for this tab, if any. */
export function keptKey(): string | null {
  try {
    return sessionStorage.getItem(SLOT);
  } catch {
    return null;
  }
}

/** Keeps `key` for this tab (or forgets it when `remember` is false). */
export function keepKey(key: string, remember: boolean): void {
  try {
    if (remember) sessionStorage.setItem(SLOT, key);
    else sessionStorage.removeItem(SLOT);
  } catch {
    // Storage refused (private mode): the key stays in memory only.
  }
}

/** Forgets the key (sign out). */
export function forgetKey(): void {
  keepKey("", false);
}
