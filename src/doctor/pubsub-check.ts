/**
 * The PubSub check: the RPC's WebSocket endpoint (RPC_WS_URL, derived from RPC_URL by default) accepts
 * subscriptions and delivers notifications, which the warm venue state of every watched mint depends on.
 */
import { createChainSubscriptions, deriveWsUrl } from "../chain/subscriptions/index.js";
import { LAUNCH_GLOBAL } from "../launch/programs.js";
import { errorText, fail, ok, warn, type CheckResult } from "./check.js";

const NAME = "pubsub";

/** Subscribes to slots and to the launch Global account; ok once a notification arrives within `timeoutMs`. */
export async function checkPubSub(
  input: { rpcUrl: string; rpcWsUrl?: string },
  timeoutMs: number,
): Promise<CheckResult> {
  let url: string;
  try {
    url = input.rpcWsUrl ?? deriveWsUrl(input.rpcUrl);
  } catch (e) {
    return fail(NAME, `RPC_WS_URL: ${errorText(e)}`);
  }
  const setting = input.rpcWsUrl !== undefined ? "RPC_WS_URL" : "RPC_WS_URL (derived from RPC_URL)";
  // One attempt: no reconnect loop behind the check's back.
  const subs = createChainSubscriptions({ url, backoff: { initialMs: timeoutMs, maxMs: timeoutMs } });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">(
    (resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)),
  );
  try {
    let delivered!: () => void;
    const notified = new Promise<"delivered">((resolve) => (delivered = () => resolve("delivered")));
    const slot = subs.slotSubscribe(() => delivered());
    const account = subs.accountSubscribe(LAUNCH_GLOBAL.toBase58(), () => delivered());
    const confirmed = await Promise.race([
      Promise.all([slot.ready, account.ready]).then(() => "ok"),
      timeout,
    ]);
    if (confirmed === "timeout") {
      return fail(
        NAME,
        `${setting} ${url} did not confirm slotSubscribe/accountSubscribe within ${timeoutMs} ms`,
      );
    }
    if ((await Promise.race([notified, timeout])) === "timeout") {
      return warn(
        NAME,
        `${url}: subscriptions confirmed, but no notification within ${timeoutMs} ms (slots not advancing?)`,
      );
    }
    return ok(NAME, `${url}: account and slot subscriptions confirmed, notifications delivered`);
  } catch (e) {
    return fail(NAME, `${setting} ${url} refused a subscription: ${errorText(e)}`);
  } finally {
    clearTimeout(timer);
    await subs.close();
  }
}
