/** The shape of one pre-flight check and its one-line result. */

/** ok: fine; warn: works but worth a look; fail: the service would fail trades (non-zero exit). */
export type CheckStatus = "ok" | "warn" | "fail";

/** One check's outcome: a name (stable, for grepping) and one line of detail naming the setting at fault. */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** Builders of results. */
export const ok = (name: string, detail: string): CheckResult => ({ name, status: "ok", detail });
export const warn = (name: string, detail: string): CheckResult => ({ name, status: "warn", detail });
export const fail = (name: string, detail: string): CheckResult => ({ name, status: "fail", detail });

const LABEL: Record<CheckStatus, string> = { ok: "ok  ", warn: "WARN", fail: "FAIL" };

/** `ok   rpc            <detail>`: one line per check. */
export function formatResult(r: CheckResult): string {
  return `${LABEL[r.status]} ${r.name.padEnd(22)} ${r.detail}`;
}

/** The text of an error, one line. */
export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ");
}
