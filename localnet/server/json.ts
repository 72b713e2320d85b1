/** JSON encoding with bigints written as plain JSON numbers (u64 values such as rentEpoch stay exact). */

const MARK = "\u0000bigint:";

/** JSON.stringify that writes bigint values as raw integer literals. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${MARK}${v}` : v)).replace(
    /"\\u0000bigint:(-?\d+)"/g,
    "$1",
  );
}

/** JSON-RPC 2.0 error object. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error to answer with (and the HTTP status to answer it under). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = "RpcError";
  }

  body(): RpcErrorBody {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** -32602 invalid params. */
export function invalidParams(message: string): RpcError {
  return new RpcError(-32602, message);
}
