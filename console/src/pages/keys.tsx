/** Keys and policies: the account's keys, a narrower new key, policies, key and account freeze. */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { short, when } from "../format";
import { ErrorLine, Modal, useLoad } from "../ui";
import { PolicyDialog, type Policy } from "./policy-dialog";

const SCOPES = ["read", "trade", "create", "transfer", "wallets", "keys"] as const;

interface Key {
  id: number;
  name: string;
  root: boolean;
  scopes: string[];
  wallets: string[] | null;
  frozen: boolean;
  policy: Policy;
  expires_at: string | null;
  created_at: string;
}

/** The keys page. */
export function Keys() {
  const { api } = useSession();
  const keys = useLoad(() => api.get<{ keys: Key[] }>("/v1/keys"), [api]);
  const [error, setError] = useState<unknown>();
  const [accountFrozen, setAccountFrozen] = useState<boolean>();
  const [created, setCreated] = useState<{ name: string; api_key: string }>();
  const [editing, setEditing] = useState<Key>();
  const run = (fn: () => Promise<unknown>) => async () => {
    setError(undefined);
    try {
      await fn();
      keys.reload();
    } catch (e) {
      setError(e);
    }
  };
  const freezeAccount = (frozen: boolean) =>
    run(async () => {
      const res = await api.post<{ frozen: boolean }>(`/v1/account/${frozen ? "freeze" : "unfreeze"}`);
      setAccountFrozen(res.frozen);
    });
  const createKey = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const name = (form.elements.namedItem("name") as HTMLInputElement).value.trim();
    const scopes = SCOPES.filter((s) => (form.elements.namedItem(`scope-${s}`) as HTMLInputElement).checked);
    const wallets = (form.elements.namedItem("wallets") as HTMLInputElement).value
      .split(/[\s,]+/)
      .filter((w) => w !== "");
    await run(async () => {
      const res = await api.post<{ name: string; api_key: string }>("/v1/keys", {
        name,
        scopes,
        ...(wallets.length > 0 ? { wallets } : {}),
      });
      setCreated(res);
      form.reset();
    })();
  };
  return (
    <section>
      <div class="freeze">
        <button type="button" class="danger big" onClick={freezeAccount(true)} data-testid="freeze-account">
          Freeze account
        </button>
        <button type="button" onClick={freezeAccount(false)}>
          Unfreeze account
        </button>
        {accountFrozen !== undefined ? (
          <strong role="status" data-testid="account-state" class={accountFrozen ? "loss" : "gain"}>
            {accountFrozen ? "Account frozen: every write of every key is refused." : "Account not frozen."}
          </strong>
        ) : (
          <span class="muted">Stops every write of every key at once (root key only); reads stay open.</span>
        )}
      </div>
      <ErrorLine error={keys.error ?? error} what="The keys page" />
      <div class="table-wrap">
        <table data-testid="keys">
          <thead>
            <tr>
              <th>Id</th>
              <th>Name</th>
              <th>Scopes</th>
              <th>Wallets</th>
              <th>Policy</th>
              <th>State</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data?.keys ?? []).map((k) => (
              <tr key={k.id}>
                <td>{k.id}</td>
                <td>
                  {k.name} {k.root ? <span class="badge">root</span> : null}
                </td>
                <td>{k.scopes.join(", ")}</td>
                <td>{k.wallets === null ? "all" : k.wallets.map((w) => short(w)).join(", ")}</td>
                <td>
                  <code>{Object.keys(k.policy).length === 0 ? "none" : JSON.stringify(k.policy)}</code>
                </td>
                <td>
                  {k.frozen ? <span class="loss">frozen</span> : "active"}
                  {k.expires_at !== null ? <div class="muted">expires {when(k.expires_at)}</div> : null}
                </td>
                <td class="buttons">
                  <button type="button" onClick={() => setEditing(k)}>
                    Policy…
                  </button>
                  {!k.root ? (
                    <>
                      <button
                        type="button"
                        onClick={run(() => api.post(`/v1/keys/${k.id}/${k.frozen ? "unfreeze" : "freeze"}`))}
                      >
                        {k.frozen ? "Unfreeze" : "Freeze"}
                      </button>
                      <button type="button" class="danger" onClick={run(() => api.del(`/v1/keys/${k.id}`))}>
                        Revoke
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>New key (narrower than yours)</h3>
      <form onSubmit={createKey} class="grid">
        <label>
          Name
          <input name="name" required maxLength={64} />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s} class="inline">
              <input type="checkbox" name={`scope-${s}`} defaultChecked={s === "read"} /> {s}
            </label>
          ))}
        </fieldset>
        <label>
          Only these wallets (blank: all)
          <input name="wallets" placeholder="public keys, comma separated" />
        </label>
        <button type="submit">Create key</button>
      </form>
      {created !== undefined ? (
        <Modal title={`Key ${created.name} created`} onClose={() => setCreated(undefined)}>
          <p class="warn">Its secret, shown this once: store it now.</p>
          <textarea readOnly rows={2} value={created.api_key} />
          <div class="actions">
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </Modal>
      ) : null}
      {editing !== undefined ? (
        <PolicyDialog
          id={editing.id}
          name={editing.name}
          policy={editing.policy}
          onDone={() => {
            setEditing(undefined);
            keys.reload();
          }}
        />
      ) : null}
    </section>
  );
}
