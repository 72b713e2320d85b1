/**
 * Time-ordered UUIDs (RFC 9562 version 7) for the ids a trade inserts (issue 18). A random (version 4) id lands
 * at a random position of every b-tree keyed by it, so on SQLite each trade's insert dirtied a page of its own
 * in the primary key's index and in `events_execution`, each written to the WAL at commit and copied back at
 * the checkpoint; ids that start with the time append to the right-hand leaf, which a group commit's writes
 * share. Still a UUID string of the same shape (36 characters, lowercase hex, the RFC variant), so nothing that
 * stores, validates or returns ids changes; ids issued before stay valid (nothing parses an id's version).
 */
import { randomUUID } from "node:crypto";

/**
 * A version-7 UUID: the 48-bit Unix time in milliseconds `nowMs`, then 74 random bits taken from a version-4
 * UUID (`random`, Node's `randomUUID` by default: its entropy comes from a batched buffer, cheaper than a
 * random fill per id). Ids of the same millisecond are in random order; those of later milliseconds sort after.
 */
export function timeOrderedUuid(nowMs: number = Date.now(), random: () => string = randomUUID): string {
  const t = Math.max(0, Math.min(Math.floor(nowMs), 0xffff_ffff_ffff))
    .toString(16)
    .padStart(12, "0");
  // random: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; from its 15th character on: "xxx-Vxxx-xxxxxxxxxxxx", the
  // 12 random bits after the version and everything after (the variant nibble V is already the RFC's).
  return `${t.slice(0, 8)}-${t.slice(8)}-7${random().slice(15)}`;
}
