/** Every relay of the fan-out answers, and the bundle relay lists its tip accounts. */
import { createBundleRelayClient } from "../chain/bundle-relay-client.js";
import { createJsonRpcTransport, type FetchLike } from "../chain/json-rpc.js";
import { HttpError, RpcError } from "../chain/upstream-errors.js";
import { errorText, fail, ok, warn, type CheckResult } from "./check.js";

/** A relay as the chain options name it (URL and headers may carry a key: never printed). */
export interface RelayProbeTarget {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Probes a sendTransaction endpoint without sending anything: a JSON-RPC getHealth. Any JSON-RPC or 4xx answer
 * proves the relay is there (many answer "method not found"); 401/403 means the auth key was refused; 5xx,
 * timeouts and connection failures mean it is not usable now.
 */
export async function probeRelay(
  target: RelayProbeTarget,
  timeoutMs: number,
  fetch?: FetchLike,
  now: () => number = () => performance.now(),
): Promise<CheckResult> {
  const name = `relay ${target.name}`;
  const transport = createJsonRpcTransport({
    url: target.url,
    timeoutMs,
    ...(fetch !== undefined ? { fetch } : {}),
    ...(target.headers !== undefined ? { headers: target.headers } : {}),
  });
  const t0 = now();
  try {
    await transport.call("getHealth", []);
  } catch (e) {
    if (e instanceof HttpError) {
      if (e.status === 401 || e.status === 403) {
        return fail(
          name,
          `answers HTTP ${e.status}: its auth key was refused (check the key variable of RELAY=${target.name})`,
        );
      }
      if (e.status < 500)
        return ok(name, `answers (HTTP ${e.status} to getHealth) in ${Math.round(now() - t0)} ms`);
    }
    // A JSON-RPC error object: the relay is up and speaks JSON-RPC.
    if (e instanceof RpcError) return ok(name, `answers in ${Math.round(now() - t0)} ms`);
    return fail(name, `does not answer: ${errorText(e)}`);
  }
  return ok(name, `answers in ${Math.round(now() - t0)} ms`);
}

/** Reads getTipAccounts from the bundle relay; compares with BUNDLE_TIP_ACCOUNTS when those are set. */
export async function checkBundleRelay(
  url: string,
  configured: readonly string[] | undefined,
  timeoutMs: number,
  fetch?: FetchLike,
): Promise<{ result: CheckResult; tipAccounts: string[] | null }> {
  const name = "bundle-relay";
  const client = createBundleRelayClient({ url, timeoutMs, ...(fetch !== undefined ? { fetch } : {}) });
  let listed: string[];
  try {
    listed = await client.getTipAccounts();
  } catch (e) {
    return {
      result: fail(name, `BUNDLE_RELAY_URL does not answer getTipAccounts: ${errorText(e)}`),
      tipAccounts: configured ? [...configured] : null,
    };
  }
  if (configured !== undefined) {
    const unknown = configured.filter((a) => !listed.includes(a));
    if (unknown.length > 0) {
      return {
        result: warn(
          name,
          `BUNDLE_TIP_ACCOUNTS holds ${unknown.length} address(es) the block engine does not list (first: ${unknown[0]})`,
        ),
        tipAccounts: [...configured],
      };
    }
    return {
      result: ok(name, `answers; BUNDLE_TIP_ACCOUNTS are among its ${listed.length} tip accounts`),
      tipAccounts: [...configured],
    };
  }
  if (listed.length === 0)
    return { result: fail(name, "getTipAccounts lists no tip account"), tipAccounts: null };
  return { result: ok(name, `answers; ${listed.length} tip accounts`), tipAccounts: listed };
}
