/** `lasertrade watch`: a live view of the key's executions as they change (the events stream). */
import type { Command } from "commander";
import type { ExecutionEvent, LaserTrade } from "@lasertrade/client";

/** One line per event: time, id, status, kind, execution, first signature. */
export function eventLine(e: ExecutionEvent): string {
  const sig = e.signatures[0] ?? "-";
  const detail =
    e.error !== null &&
    typeof e.error === "object" &&
    typeof (e.error as { detail?: unknown }).detail === "string"
      ? `  ${(e.error as { detail: string }).detail}`
      : "";
  return `${e.created_at}  #${e.id}  ${e.status.padEnd(9)}  ${e.kind.padEnd(11)}  ${e.execution_id}  ${sig}${detail}`;
}

/** Registers `watch` on the program; `client` and `json` come from the command context. */
export function registerWatch(
  program: Command,
  context: () => { client(): Promise<LaserTrade>; json: boolean },
): void {
  program
    .command("watch")
    .description("live view of the key's executions as they change (resumes after a dropped connection)")
    .option("--after <event_id>", "start after this event id (default: new events only)")
    .option("--types <list>", "comma-separated event types, e.g. execution.confirmed,execution.failed")
    .option("--kind <kind>", "only this kind of execution")
    .option("-w, --wallet <public_key>", "only executions involving this wallet")
    .option("--count <n>", "stop after n events")
    .action(async (o: Record<string, unknown>) => {
      const c = context();
      const client = await c.client();
      const abort = new AbortController();
      process.once("SIGINT", () => abort.abort());
      const limit = typeof o.count === "string" ? Number(o.count) : Infinity;
      let seen = 0;
      const events = client.events(
        {
          ...(typeof o.after === "string" ? { after: o.after } : {}),
          ...(typeof o.types === "string" ? { types: o.types.split(",") } : {}),
          ...(typeof o.kind === "string" ? { kind: o.kind } : {}),
          ...(typeof o.wallet === "string" ? { wallet: o.wallet } : {}),
        },
        {
          signal: abort.signal,
          onGap: (g) =>
            process.stderr.write(
              `events after #${g.after} were purged (retention); continuing from the oldest kept\n`,
            ),
        },
      );
      for await (const e of events) {
        process.stdout.write(c.json ? `${JSON.stringify(e)}\n` : `${eventLine(e)}\n`);
        seen += 1;
        if (seen >= limit) break;
      }
    });
}
