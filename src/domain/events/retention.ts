/** How long events are kept. */
import { isoNoZone } from "../../store/index.js";

const DAY_MS = 86_400_000;

/** The created_at (ISO, no zone) before which events are purged, `days` before `now`. */
export function eventsRetentionCutoff(now: Date, days: number): string {
  return isoNoZone(new Date(now.getTime() - days * DAY_MS));
}
