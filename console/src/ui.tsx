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

/** The API's error detail (and rule, status), or nothing. */
export function ErrorLine({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p class="error" role="alert">
      {error instanceof ApiFailure ? <strong>{error.status} </strong> : null}
      {errorText(error)}
    </p>
  );
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
