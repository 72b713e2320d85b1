/** The `-c` settings every connection of a PostgreSQL store starts with (pg's `options` connection parameter). */
import { EVENTS_NOTIFY_SETTING } from "../events/migrations-events.js";

/**
 * The session settings of a store's connection: `schema` resolves unqualified names there; `notify: false`
 * turns the events trigger's NOTIFY off (a process whose wake-ups go through Redis); `extra` adds more.
 */
export function pgSessionOptions(s: {
  schema?: string;
  notify?: boolean;
  extra?: readonly string[];
}): string {
  const settings = [...(s.extra ?? []).map((e) => `-c ${e}`)];
  if (s.schema !== undefined) settings.push(`-c search_path=${s.schema}`);
  if (s.notify === false) settings.push(`-c ${EVENTS_NOTIFY_SETTING}=off`);
  return settings.join(" ");
}
