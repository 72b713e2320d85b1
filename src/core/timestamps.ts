/** The wire form of the service's own timestamps (issue 30): RFC 3339 in UTC with `Z`. */

// A stored timestamp without a zone: the store keeps UTC as ISO 8601 without suffix (docs/decisions.md).
const NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/**
 * A stored UTC timestamp as RFC 3339 with `Z` (`2026-01-02T03:04:05.678` → `2026-01-02T03:04:05.678Z`); one
 * that already names its zone is returned as it is. The spec's wallet `created_at` keeps its own form and does
 * not go through here.
 */
export function utcTimestamp(stored: string): string {
  return NO_ZONE.test(stored) ? `${stored}Z` : stored;
}

/** `utcTimestamp` of a nullable value. */
export function utcTimestampOrNull(stored: string | null): string | null {
  return stored === null ? null : utcTimestamp(stored);
}
