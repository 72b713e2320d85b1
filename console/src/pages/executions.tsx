/** Executions: the key's history, with new ones and status changes pushed live from /v1/events. */
import { useEffect, useState } from "preact/hooks";
import { useSession } from "../session-context";
import { short, signedSol, when } from "../format";
import { ErrorLine, useLoad } from "../ui";

interface Execution {
  id: string;
  kind: string;
  wallet: string;
  status: string;
  signatures: string[];
  created_at: string;
  request?: Record<string, unknown> | null;
  response?: Record<string, unknown> | null;
  error?: unknown;
}

interface Fill {
  sol_change_lamports: string;
  token_change: string;
}

/** The venue (and pool) a trade took, from its answer or its request. */
function route(e: Execution): string {
  const r = e.response ?? e.request ?? {};
  const venue = typeof r.venue === "string" ? r.venue : "";
  const pool = typeof r.pool === "string" ? ` ${short(r.pool)}` : "";
  const action = typeof r.action === "string" ? `${r.action} ` : "";
  return `${action}${venue}${pool}`.trim();
}

function FailureView({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  const o = typeof error === "object" ? (error as Record<string, unknown>) : { detail: String(error) };
  const logs = Array.isArray(o.logs) ? (o.logs as unknown[]).map(String) : [];
  const program = o.program_error as { program?: string; code?: number; name?: string } | null | undefined;
  const rest = Object.entries(o).filter(([k]) => k !== "detail" && k !== "logs" && k !== "program_error");
  return (
    <div class="failure">
      <span class="loss">{typeof o.detail === "string" ? o.detail : "failed"}</span>
      {program !== null && program !== undefined ? (
        <div data-testid="program-error">
          program <code>{program.program}</code> error {program.code} <strong>{program.name}</strong>
        </div>
      ) : null}
      {rest.map(([k, v]) => (
        <span key={k} class="muted">
          {" "}
          {k}: {typeof v === "string" ? v : JSON.stringify(v)}
        </span>
      ))}
      {logs.length > 0 ? (
        <details>
          <summary>program logs ({logs.length})</summary>
          <pre>{logs.join("\n")}</pre>
        </details>
      ) : null}
    </div>
  );
}

/** The executions page. */
export function Executions() {
  const { api, events } = useSession();
  const first = useLoad(() => api.get<{ executions: Execution[] }>("/v1/executions?limit=50"), [api]);
  const [rows, setRows] = useState<Execution[]>([]);
  useEffect(() => {
    if (first.data !== undefined) setRows(first.data.executions);
  }, [first.data]);
  useEffect(
    () =>
      events.on((e) => {
        if (!e.type.startsWith("execution.") || e.execution_id === undefined) return;
        api.get<Execution>(`/v1/executions/${e.execution_id}`).then(
          (x) => setRows((rs) => [x, ...rs.filter((r) => r.id !== x.id)].slice(0, 200)),
          () => undefined,
        );
      }),
    [api, events],
  );
  return (
    <section>
      <ErrorLine error={first.error} what="The executions list" />
      <p class="muted">Live: new executions and status changes arrive from the event stream.</p>
      <div class="table-wrap">
        <table data-testid="executions" class="stack">
          <thead>
            <tr>
              <th>Time</th>
              <th>Kind</th>
              <th>Status</th>
              <th>Route</th>
              <th>Wallet</th>
              <th class="num">SOL change</th>
              <th class="num">Token change</th>
              <th>Signature / error</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => {
              const fill = (e.response?.fill ?? null) as Fill | null;
              return (
                <tr key={e.id} data-execution={e.id}>
                  <td data-label="Time">{when(e.created_at)}</td>
                  <td data-label="Kind">{e.kind}</td>
                  <td data-label="Status">
                    <span class={`status ${e.status}`}>{e.status}</span>
                  </td>
                  <td data-label="Route">{route(e)}</td>
                  <td data-label="Wallet">
                    <code title={e.wallet}>{short(e.wallet)}</code>
                  </td>
                  <td class="num" data-label="SOL change">
                    {fill !== null ? signedSol(fill.sol_change_lamports, 6) : ""}
                  </td>
                  <td class="num" data-label="Token change">
                    {fill !== null ? fill.token_change : ""}
                  </td>
                  <td data-label="Signature / error">
                    <div>
                      {e.signatures.map((s) => (
                        <code key={s} title={s}>
                          {short(s, 6)}{" "}
                        </code>
                      ))}
                      <FailureView error={e.error} />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && first.data !== undefined ? <p class="muted">No execution yet.</p> : null}
    </section>
  );
}
