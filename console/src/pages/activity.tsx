/** Activity: the account's append-only log of writes and refusals, newest first, page by page. */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { short, when } from "../format";
import { ErrorLine, useLoad } from "../ui";

interface Row {
  id: number;
  at: string;
  key_id: number;
  key_name: string;
  method: string;
  route: string;
  wallets: string[];
  execution_id: string | null;
  status: number;
  rule?: string | null;
  refusals?: number;
  ip?: string | null;
}

interface Page {
  activity: Row[];
  next_cursor: string | null;
}

/** The activity page. */
export function Activity() {
  const { api } = useSession();
  const [older, setOlder] = useState<Row[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>();
  const [error, setError] = useState<unknown>();
  const first = useLoad(() => api.get<Page>("/v1/activity?limit=50"), [api]);
  const next = cursor === undefined ? (first.data?.next_cursor ?? null) : cursor;
  const more = async () => {
    try {
      const page = await api.get<Page>(`/v1/activity?limit=50&after=${encodeURIComponent(next ?? "")}`);
      setOlder((o) => [...o, ...page.activity]);
      setCursor(page.next_cursor);
    } catch (e) {
      setError(e);
    }
  };
  const rows = [...(first.data?.activity ?? []), ...older];
  return (
    <section>
      <ErrorLine error={first.error ?? error} what="The activity log" />
      <button type="button" onClick={first.reload}>
        Refresh
      </button>
      <div class="table-wrap">
        <table data-testid="activity">
          <thead>
            <tr>
              <th>Time</th>
              <th>Key</th>
              <th>Request</th>
              <th>Status</th>
              <th>Rule</th>
              <th>Wallets</th>
              <th>IP</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{when(r.at)}</td>
                <td>
                  {r.key_name} <span class="muted">#{r.key_id}</span>
                </td>
                <td>
                  <code>
                    {r.method} {r.route}
                  </code>
                </td>
                <td class={r.status >= 400 ? "loss" : ""}>
                  {r.status}
                  {r.refusals !== undefined && r.refusals > 1 ? ` ×${r.refusals}` : ""}
                </td>
                <td>{r.rule ?? ""}</td>
                <td>{r.wallets.map((w) => short(w)).join(", ")}</td>
                <td>{r.ip ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next !== null ? (
        <button type="button" onClick={more}>
          Older…
        </button>
      ) : null}
    </section>
  );
}
