/** The API as the console calls it: same origin, the operator's key in `x-api-key`, errors with their detail. */

/** A refused or failed call: the API's `detail` text, its other fields (rule, reason…) and the status. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === "string" ? body.detail : `HTTP ${status}`);
  }

  /** Fields beside `detail` (e.g. `rule`), for display. */
  extras(): [string, string][] {
    return Object.entries(this.body)
      .filter(([k]) => k !== "detail")
      .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
  }
}

export interface Api {
  key: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
}

/** A client bound to `key`; the key travels only in the header, never in a URL. */
export function createApi(key: string): Api {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(path, {
      method,
      headers: {
        "x-api-key": key,
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      credentials: "omit",
      cache: "no-store",
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      parsed = { detail: text.slice(0, 300) };
    }
    if (!res.ok) {
      const obj = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
      throw new ApiFailure(res.status, obj);
    }
    return parsed as T;
  };
  return {
    key,
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body ?? {}),
    put: (path, body) => call("PUT", path, body),
    del: (path) => call("DELETE", path),
  };
}

/** The text to show for any thrown value. */
export function errorText(e: unknown): string {
  if (e instanceof ApiFailure) {
    const extras = e.extras().filter(([k]) => k !== "logs");
    return extras.length === 0
      ? e.message
      : `${e.message} (${extras.map(([k, v]) => `${k}: ${v}`).join(", ")})`;
  }
  return e instanceof Error ? e.message : String(e);
}
