/** Edit a key's policy (PUT /v1/keys/{id}/policy replaces it whole; empty fields are no limit). */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { ErrorLine, Modal } from "../ui";

export type Policy = Record<string, string | string[] | undefined>;

const TEXT_FIELDS = [
  ["max_sol_per_execution", "Max SOL per execution"],
  ["max_sol_per_24h", "Max SOL per 24 h"],
  ["max_priority_fee_lamports", "Max priority fee (lamports)"],
  ["max_tip_lamports", "Max tip (lamports)"],
] as const;
const LIST_FIELDS = [
  ["venues", "Venues (bonding_curve, launchswap)"],
  ["mints_allow", "Only these mints"],
  ["mints_deny", "Never these mints"],
  ["destinations_allow", "Outside destinations allowed"],
] as const;

/** The policy form of key `id`. */
export function PolicyDialog(props: { id: number; name: string; policy: Policy; onDone: () => void }) {
  const { api } = useSession();
  const [error, setError] = useState<unknown>();
  const save = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const value = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value.trim();
    const body: Record<string, unknown> = {};
    for (const [n] of TEXT_FIELDS) if (value(n) !== "") body[n] = value(n);
    for (const [n] of LIST_FIELDS) {
      const items = value(n)
        .split(/[\s,]+/)
        .filter((x) => x !== "");
      if (items.length > 0) body[n] = items;
    }
    try {
      await api.put(`/v1/keys/${props.id}/policy`, body);
      props.onDone();
    } catch (err) {
      setError(err);
    }
  };
  const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : (v ?? ""));
  return (
    <Modal title={`Policy of ${props.name}`} onClose={props.onDone}>
      <form onSubmit={save} class="grid">
        {[...TEXT_FIELDS, ...LIST_FIELDS].map(([n, label]) => (
          <label key={n}>
            {label}
            <input name={n} defaultValue={text(props.policy[n])} />
          </label>
        ))}
        <ErrorLine error={error} />
        <div class="actions">
          <button type="submit">Save policy</button>
          <button type="button" onClick={props.onDone}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
