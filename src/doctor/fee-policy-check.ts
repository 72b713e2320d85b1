/** What the priority-fee policy would pay right now, and whether its cap binds. */
import { estimatePriorityFee, type PriorityFeeSetting } from "../chain/priority-fee.js";
import type { RpcClient } from "../chain/rpc-client.js";
import { errorText, fail, ok, warn, type CheckResult } from "./check.js";

const NAME = "fee-policy";

/** Fixed: the figure. Auto: one cluster-wide getRecentPrioritizationFees, estimated as the service would. */
export async function checkFeePolicy(
  rpc: Pick<RpcClient, "getRecentPrioritizationFees">,
  setting: PriorityFeeSetting,
): Promise<CheckResult> {
  if (setting.mode === "fixed") {
    return ok(
      NAME,
      `fixed ${setting.microLamports} micro-lamports per CU (COMPUTE_UNIT_PRICE_MICROLAMPORTS)`,
    );
  }
  let sample;
  try {
    sample = await rpc.getRecentPrioritizationFees();
  } catch (e) {
    return fail(
      NAME,
      `RPC_URL does not answer getRecentPrioritizationFees (needed by auto): ${errorText(e)}`,
    );
  }
  const estimate = estimatePriorityFee(
    sample.map((s) => s.prioritizationFee),
    setting,
  );
  const policy = `auto:p${setting.percentile ?? 75}, cap ${setting.maxMicroLamports ?? "default"}`;
  const detail = `${policy}: cluster-wide ${estimate} micro-lamports per CU now (${sample.length} slots sampled)`;
  if (setting.maxMicroLamports !== undefined && estimate >= setting.maxMicroLamports) {
    return warn(
      NAME,
      `${detail}; the cap binds (COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS): transactions may land late`,
    );
  }
  return ok(NAME, detail);
}
