/** Overview: SOL across wallets, positions value, realized and unrealized PnL, PnL over time. */
import { useSession } from "../session-context";
import { big } from "../format";
import { walletsWithBalances } from "../data";
import { loadPnl, loadPositions } from "../positions-source";
import { LineChart } from "../chart";
import { useLiveReload } from "../live";
import { Card, ErrorLine, Pending, Sol, useLoad } from "../ui";
import type { Api } from "../api";

interface Execution {
  kind: string;
  status: string;
  created_at: string;
  response?: { fill?: { sol_change_lamports: string } | null } | null;
}

/** Cumulative SOL change of confirmed trades over time (the chart without a ledger). */
async function tradeFlow(api: Api): Promise<[number, number][]> {
  const page = await api.get<{ executions: Execution[] }>("/v1/executions?kind=trade&limit=200");
  let running = 0;
  return page.executions
    .filter((e) => e.response?.fill !== undefined && e.response?.fill !== null)
    .reverse()
    .map((e) => {
      running += Number(big(e.response!.fill!.sol_change_lamports)) / 1e9;
      return [Date.parse(e.created_at) / 1000, running] as [number, number];
    })
    .filter((p, i, all) => i === all.length - 1 || p[0] !== all[i + 1]![0]);
}

async function loadOverview(api: Api) {
  const [wallets, positions] = await Promise.all([walletsWithBalances(api), loadPositions(api)]);
  const pnl = await loadPnl(api, positions.rows);
  const solTotal = wallets.reduce((a, w) => a + big(w.balances?.lamports), 0n);
  const value = positions.rows.reduce((a, p) => a + big(p.value), 0n);
  const series = pnl !== null ? pnl.series : await tradeFlow(api);
  return { wallets, positions, pnl, solTotal, value, series };
}

/** The overview page. */
export function Overview() {
  const { api } = useSession();
  const { data, error, reload } = useLoad(() => loadOverview(api), [api]);
  useLiveReload(reload);
  return (
    <section>
      <ErrorLine error={error} what="The overview" />
      {data === undefined ? (
        <Pending error={error} />
      ) : (
        <>
          <div class="cards">
            <Card
              label={`SOL across ${data.wallets.length} wallet${data.wallets.length === 1 ? "" : "s"}`}
              testId="sol-total"
            >
              <Sol lamports={data.solTotal} />
            </Card>
            <Card label={`Positions value (${data.positions.rows.length} open)`} testId="positions-value">
              <Sol lamports={data.value} />
            </Card>
            <Card label="Realized PnL" testId="realized">
              <Sol lamports={data.pnl?.realized} signed />
            </Card>
            <Card label="Unrealized PnL" testId="unrealized">
              <Sol lamports={data.pnl?.unrealized} signed />
            </Card>
          </div>
          {data.pnl === null ? (
            <p class="muted">
              This service has no positions ledger: values are sell quotes of the balances held; PnL needs it.
            </p>
          ) : null}
          <h3>
            {data.pnl !== null
              ? "PnL over time (SOL: realized, cumulative by day; the last point adds the unrealized PnL now)"
              : "Net SOL of trades over time"}
          </h3>
          <LineChart points={data.series} label={data.pnl !== null ? "PnL (SOL)" : "net SOL of trades"} />
        </>
      )}
    </section>
  );
}
