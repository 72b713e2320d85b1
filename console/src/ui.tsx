/** Small shared pieces: loading hook, error line, amounts, confirmation dialog. */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, errorText } from "./api";
import { signedSol, sol, tone } from "./format";

/** Loads `fn` when `deps` change; `reload` loads again. */
export function useLoad<T>(
  fn: () => Promise<T>,
  deps: unknown[],
): { data: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const reload = useCallback(() => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => n === seq.current && setState({ data, loading: false }),
      (error: unknown) => n === seq.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, deps);
  useEffect(reload, [reload]);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** The scope a 403 `scope` refusal names (`API key lacks the "read" scope`; `root` for root-only routes). */
export function missingScope(error: unknown): string | undefined {
  if (!(error instanceof ApiFailure) || error.status !== 403 || error.body.rule !== "scope") return undefined;
  return /"([a-z]+)" scope/.exec(error.message)?.[1] ?? "root";
}

/**
 * The API's error detail (and rule, status), or nothing. A key refused for its scope is not an error of the
 * page: it says which scope is missing, so the operator knows which key would do.
 */
export function ErrorLine({ error, what }: { error: unknown; what?: string }) {
  if (error === undefined || error === null) return null;
  const scope = missingScope(error);
  if (scope !== undefined)
    return (
      <p class="notice" role="status" data-testid="missing-scope" data-scope={scope}>
        {scope === "root"
          ? `${what ?? "This"} needs the account's root key; this key is a sub-key.`
          : `${what ?? "This"} needs the “${scope}” scope, which this key lacks.`}{" "}
        Sign in with a key that has it (Keys &amp; policies creates narrower keys from a key that holds it).
      </p>
    );
  return (
    <p class="error" role="alert">
      {error instanceof ApiFailure ? <strong>{error.status} </strong> : null}
      {errorText(error)}
    </p>
  );
}

/** "Loading…" while nothing came back yet and nothing failed. */
export function Pending({ error }: { error: unknown }) {
  return error === undefined || error === null ? <p class="muted">Loading…</p> : null;
}

/** SOL amount from lamports. */
export function Sol({
  lamports,
  signed = false,
}: {
  lamports: string | bigint | null | undefined;
  signed?: boolean;
}) {
  if (lamports === null || lamports === undefined) return <span class="muted">—</span>;
  return (
    <span class={`num ${signed ? tone(lamports) : ""}`} title={`${String(lamports)} lamports`}>
      {signed ? signedSol(lamports) : sol(lamports)}
    </span>
  );
}

/** A modal dialog (native <dialog>: focus kept inside, Escape closes). */
export function Modal(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d !== null && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-label={props.title} onClose={props.onClose} onCancel={props.onClose}>
      <h3>{props.title}</h3>
      {props.children}
    </dialog>
  );
}

/** A metric card of the overview. */
export function Card(props: { label: string; children: ComponentChildren; testId?: string }) {
  return (
    <div class="card" data-testid={props.testId}>
      <div class="label">{props.label}</div>
      <div class="value">{props.children}</div>
    </div>
  );
}
