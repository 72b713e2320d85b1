/** The one error type the client throws. */
import type { components } from "./generated/openapi.js";

/**
 * The service's stable machine code of an error (`<capability>.<condition>`, e.g. `trade.simulation_failed`),
 * generated from the OpenAPI document's error catalog: match on it rather than on `detail`.
 */
export type ErrorCode = components["schemas"]["Error"]["code"];

/** An HTTP error answer (status and the service's `detail`), or a network failure (status 0). */
export class LaserTradeError extends Error {
  override readonly name = "LaserTradeError";
  /** HTTP status; 0 when no response arrived (network error after the retries). */
  readonly status: number;
  /** The service's `detail` text (or the network error's message). */
  readonly detail: string;
  /** The service's machine code; undefined for a network error or an answer without one (a proxy's). */
  readonly code: ErrorCode | undefined;
  /** For a 502 after something was signed: the transaction signature (first leg's for bundles). */
  readonly signature: string | undefined;
  /** Every signature the error body named (bundle legs), empty when none. */
  readonly signatures: string[];
  /** The whole error body as the service sent it (program_error, logs, completed_transactions, …). */
  readonly body: Record<string, unknown>;

  constructor(status: number, detail: string, body: Record<string, unknown> = {}) {
    super(status === 0 ? detail : `${status}: ${detail}`);
    this.status = status;
    this.detail = detail;
    this.body = body;
    this.code = typeof body.code === "string" ? (body.code as ErrorCode) : undefined;
    const many = Array.isArray(body.signatures)
      ? body.signatures.filter((s): s is string => typeof s === "string")
      : [];
    const one = typeof body.signature === "string" ? body.signature : many[0];
    this.signature = one;
    this.signatures = one !== undefined && many.length === 0 ? [one] : many;
  }

  /** Builds the error from an error response's body (JSON `{detail}` or any text). */
  static fromResponse(status: number, body: unknown): LaserTradeError {
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      const detail = typeof b.detail === "string" ? b.detail : `HTTP ${status}`;
      return new LaserTradeError(status, detail, b);
    }
    const text =
      typeof body === "string" && body.trim() !== "" ? body.trim().slice(0, 500) : `HTTP ${status}`;
    return new LaserTradeError(status, text);
  }
}
