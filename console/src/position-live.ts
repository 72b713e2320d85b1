/**
 * Keeps position rows live without polling: a `position.updated` event (a fill of ours) re-reads that position,
 * and a trade on one of the held mints (anyone's, from the market stream) re-values the rows of that mint, so
 * the unrealized PnL follows the price as it moves.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { PositionRow } from "./data";
import { openMarket, type MarketState } from "./market-socket";
import { loadPosition } from "./positions-source";
import { useSession } from "./session-context";

const rowKey = (r: { wallet: string; mint: string }) => `${r.wallet}:${r.mint}`;

/** The rows with `fresh` read positions in place (closed ones dropped), in wallet then mint order. */
function merge(rows: PositionRow[], fresh: PositionRow[]): PositionRow[] {
  const byKey = new Map(rows.map((r) => [rowKey(r), r]));
  for (const f of fresh) {
    if (BigInt(f.tokens) === 0n) byKey.delete(rowKey(f));
    else byKey.set(rowKey(f), f);
  }
  return [...byKey.values()].sort((a, b) => rowKey(a).localeCompare(rowKey(b)));
}

/**
 * The rows, kept live; `ledger` false (no positions API) falls back to `reload` on every confirmed fill.
 * `onPriceState` hears the market stream's state (prices follow it).
 */
export function useLivePositions(
  initial: PositionRow[] | undefined,
  ledger: boolean,
  reload: () => void,
  onPriceState: (s: MarketState) => void = () => undefined,
): PositionRow[] {
  const { api, events } = useSession();
  const [rows, setRows] = useState<PositionRow[]>([]);
  useEffect(() => setRows(initial ?? []), [initial]);
  const current = useRef(rows);
  current.current = rows;
  // Each read merges into the rows of its time: two reads in flight never undo each other.
  const update = (targets: { wallet: string; mint: string }[]) => {
    void Promise.all(targets.map((t) => loadPosition(api, t.wallet, t.mint).catch(() => null))).then(
      (fresh) =>
        setRows((now) =>
          merge(
            now,
            fresh.filter((f): f is PositionRow => f !== null),
          ),
        ),
    );
  };
  useEffect(
    () =>
      events.on((e) => {
        if (!ledger) {
          if (e.type === "execution.confirmed" || e.type === "execution.finalized") reload();
          return;
        }
        const p = e.position as { wallet?: string; mint?: string } | undefined;
        if (e.type === "position.updated" && p?.wallet !== undefined && p.mint !== undefined)
          update([{ wallet: p.wallet, mint: p.mint }]);
      }),
    [events, ledger, api],
  );
  const mints = [...new Set(rows.map((r) => r.mint))].sort().join(",");
  useEffect(() => {
    if (!ledger || mints === "") return;
    const pending = new Set<string>();
    const socket = openMarket(
      api.key,
      (m) => {
        if (m.type !== "trade" || typeof m.mint !== "string" || pending.has(m.mint)) return;
        const mint = m.mint;
        pending.add(mint);
        requestAnimationFrame(() => {
          pending.delete(mint);
          update(current.current.filter((r) => r.mint === mint));
        });
      },
      onPriceState,
      // Trades while the stream was away are not replayed: value every row again once it is back.
      () => update(current.current),
    );
    socket.send({ method: "subscribeTokenTrade", keys: mints.split(",") });
    return () => socket.close();
  }, [api, ledger, mints]);
  return rows;
}
