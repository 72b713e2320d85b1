/** A small HTTP client of the service API, and `setupKey` (a new API key with a funded default wallet). */
import { randomBytes } from "node:crypto";
import type { LocalnetClient } from "./localnet-process.js";

/** What `apiRequest` resolves with. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: T;
  text: string;
}

/** Options of one request. */
export interface ApiRequestOptions {
  apiKey?: string;
  /** JSON body (serialized here). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Abort after this many ms (default: none). */
  timeoutMs?: number;
}

/** One request to the service; never throws for an HTTP status, only for a network failure or timeout. */
export async function apiRequest<T = unknown>(
  baseUrl: string,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  options: ApiRequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers["x-api-key"] = options.apiKey;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.timeoutMs !== undefined ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

/** A key made by `setupKey`. */
export interface TestKey {
  apiKey: string;
  /** The default wallet's public key. */
  wallet: string;
}

let setupCounter = 0;

/**
 * A unique client address for the setup limit (one setup per IP per 5 s). It goes only into the
 * X-Forwarded-For header of a request to the local service (which must run with TRUST_PROXY=true, as the
 * harness starts it); it is from the IPv6 documentation range and never contacted.
 */
function uniqueClientIp(): string {
  setupCounter += 1;
  return `2001:db8::${randomBytes(2).toString("hex")}:${(setupCounter & 0xffff).toString(16)}`;
}

/**
 * POST /v1/laser/setup, then funds the default wallet with `sol` SOL (default 10; 0 = none) from the
 * localnet. `clientIp` sets X-Forwarded-For (default: a fresh one, so the setup limit does not bite).
 */
export async function setupKey(
  baseUrl: string,
  localnet: Pick<LocalnetClient, "fund">,
  options: { sol?: bigint; clientIp?: string } = {},
): Promise<TestKey> {
  const res = await apiRequest<{ api_key: string; wallet_public_key: string }>(
    baseUrl,
    "POST",
    "/v1/laser/setup",
    { headers: { "x-forwarded-for": options.clientIp ?? uniqueClientIp() } },
  );
  if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${res.text}`);
  const key = { apiKey: res.body.api_key, wallet: res.body.wallet_public_key };
  const sol = options.sol ?? 10n;
  if (sol > 0n) await localnet.fund(key.wallet, sol * 1_000_000_000n);
  return key;
}

/** Creates another wallet of the key (POST /v1/wallets) funded with `sol` SOL (default 10). */
export async function fundedWallet(
  baseUrl: string,
  localnet: Pick<LocalnetClient, "fund">,
  apiKey: string,
  sol = 10n,
): Promise<string> {
  const res = await apiRequest<{ public_key: string }>(baseUrl, "POST", "/v1/wallets", {
    apiKey,
    body: {},
  });
  if (res.status !== 200) throw new Error(`create wallet failed: ${res.status} ${res.text}`);
  if (sol > 0n) await localnet.fund(res.body.public_key, sol * 1_000_000_000n);
  return res.body.public_key;
}

/** One execution record as GET /v1/executions shows it (the fields the harness reads). */
export interface ExecutionRecord {
  id: string;
  kind: string;
  wallet: string;
  signatures: string[];
  status: string;
  confirmation_status?: string | null;
  idempotency_key?: string | null;
}

/** Every execution of the key (all pages of GET /v1/executions, 200 per page), newest first. */
export async function allExecutions(baseUrl: string, apiKey: string): Promise<ExecutionRecord[]> {
  const out: ExecutionRecord[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const res: ApiResponse<{ executions: ExecutionRecord[]; next_offset: number | null }> = await apiRequest(
      baseUrl,
      "GET",
      `/v1/executions?limit=200&offset=${offset}`,
      { apiKey },
    );
    if (res.status !== 200) throw new Error(`list executions failed: ${res.status} ${res.text}`);
    out.push(...res.body.executions);
    offset = res.body.next_offset;
  }
  return out;
}
