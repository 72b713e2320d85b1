/** Wallets: balances, create, import, make default, delink (what it holds shown before confirming). */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { big, fixed, short, sol, when } from "../format";
import { walletsWithBalances, type Balances, type Wallet } from "../data";
import { useLiveReload } from "../live";
import { ErrorLine, Modal, Sol, useLoad } from "../ui";

type Row = { wallet: Wallet; balances: Balances | null; error?: unknown };

function DelinkDialog(props: { row: Row; onDone: () => void }) {
  const { api } = useSession();
  const [error, setError] = useState<unknown>();
  const { wallet, balances } = props.row;
  const held = (balances?.tokens ?? []).filter((t) => big(t.amount) > 0n);
  const delink = async () => {
    try {
      await api.del(`/v1/wallets/${wallet.public_key}`);
      props.onDone();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Modal title={`Delink ${short(wallet.public_key, 6)}?`} onClose={props.onDone}>
      <p>
        It holds{" "}
        <strong data-testid="delink-sol">
          {balances === null ? "an unknown amount of" : sol(balances.lamports, 9)} SOL
        </strong>
        {held.length > 0 ? " and these tokens:" : " and no token."}
      </p>
      {held.length > 0 ? (
        <ul>
          {held.map((t) => (
            <li key={t.mint}>
              <code>{short(t.mint, 6)}</code>: {fixed(big(t.amount), t.decimals)}
            </li>
          ))}
        </ul>
      ) : null}
      <p class="warn">
        Delinking deletes the service's encrypted copy of its secret and its history here; the chain keeps the
        wallet. Without its secret (shown once at creation) those funds are out of reach.
      </p>
      <ErrorLine error={error} />
      <div class="actions">
        <button type="button" class="danger" onClick={delink}>
          Delink
        </button>
        <button type="button" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

/** The wallets page. */
export function Wallets() {
  const { api } = useSession();
  const { data, error, reload } = useLoad(() => walletsWithBalances(api), [api]);
  const [actionError, setActionError] = useState<unknown>();
  const [created, setCreated] = useState<{ public_key: string; private_key_base58: string }>();
  const [delinking, setDelinking] = useState<Row>();
  useLiveReload(reload);
  const run = (fn: () => Promise<unknown>) => async () => {
    setActionError(undefined);
    try {
      await fn();
      reload();
    } catch (e) {
      setActionError(e);
    }
  };
  const create = run(async () => setCreated(await api.post("/v1/wallets", { set_default: false })));
  const importWallet = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const secret = form.elements.namedItem("secret") as HTMLInputElement;
    const makeDefault = (form.elements.namedItem("default") as HTMLInputElement).checked;
    await run(() =>
      api.post("/v1/wallets/import", { private_key_base58: secret.value.trim(), set_default: makeDefault }),
    )();
    secret.value = "";
  };
  return (
    <section>
      <ErrorLine error={error ?? actionError} what="The wallets page" />
      <div class="table-wrap">
        <table data-testid="wallets">
          <thead>
            <tr>
              <th>Wallet</th>
              <th class="num">SOL</th>
              <th class="num">Tokens</th>
              <th>Created</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {(data ?? []).map((r) => (
              <tr key={r.wallet.public_key}>
                <td>
                  <code title={r.wallet.public_key}>{short(r.wallet.public_key, 6)}</code>
                  {r.wallet.is_default ? <span class="badge">default</span> : null}
                </td>
                <td class="num">
                  {r.balances === null ? (
                    <ErrorLine error={r.error} />
                  ) : (
                    <Sol lamports={r.balances.lamports} />
                  )}
                </td>
                <td class="num">{r.balances?.tokens.filter((t) => big(t.amount) > 0n).length ?? ""}</td>
                <td>{when(r.wallet.created_at)}</td>
                <td class="buttons">
                  {!r.wallet.is_default ? (
                    <button
                      type="button"
                      onClick={run(() => api.put(`/v1/wallets/${r.wallet.public_key}/default`))}
                    >
                      Make default
                    </button>
                  ) : null}
                  <button type="button" class="danger" onClick={() => setDelinking(r)}>
                    Delink…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="forms">
        <button type="button" onClick={create}>
          Create a wallet
        </button>
        <form onSubmit={importWallet} class="row">
          <label>
            Import a secret key (base58)
            <input name="secret" type="password" autocomplete="off" required />
          </label>
          <label class="inline">
            <input name="default" type="checkbox" /> make default
          </label>
          <button type="submit">Import</button>
        </form>
      </div>
      {created !== undefined ? (
        <Modal title="Wallet created" onClose={() => setCreated(undefined)}>
          <p>
            <code>{created.public_key}</code>
          </p>
          <p class="warn">Its secret key, shown this once: store it now.</p>
          <textarea readOnly rows={3} value={created.private_key_base58} />
          <div class="actions">
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </Modal>
      ) : null}
      {delinking !== undefined ? (
        <DelinkDialog
          row={delinking}
          onDone={() => {
            setDelinking(undefined);
            reload();
          }}
        />
      ) : null}
    </section>
  );
}
