/** Metrics: the execution-outcome hook on the real pipeline and store, and label hygiene. */
import { Keypair, type TransactionInstruction } from "@solana/web3.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChainTransaction } from "../../../src/chain/chain.js";
import { SubmissionError, type SubmitResult } from "../../../src/chain/submit.js";
import { SPEC } from "../../../src/core/errors.js";
import { observeOutcomes } from "../../../src/domain/execution/outcome-observer.js";
import { runSingleExecution } from "../../../src/domain/execution/pipeline.js";
import { type ExecutionDeps } from "../../../src/domain/execution/types.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { relayMetricsObserver } from "../../../src/observability/relay-observer.js";
import { openStore, type ExecutionKind, type ExecutionStatus, type Store } from "../../../src/store/index.js";
import type { SealedWallet } from "../../../src/vault/index.js";
import { newExecution } from "../../helpers/fixtures.js";

const ok = (confirmed: boolean): SubmitResult => ({
  signature: "SIG",
  confirmed,
  confirmationStatus: confirmed ? "confirmed" : null,
  timingMs: { sender: 1, confirmation: 2 },
});

/** The counter's value for one kind/outcome, read back from the registry. */
async function executions(metrics: Metrics, kind: string, outcome: string): Promise<number> {
  const m = await metrics.registry.getSingleMetric("lasertrade_executions_total")?.get();
  const v = m?.values.find((x) => x.labels.kind === kind && x.labels.outcome === outcome);
  return v?.value ?? 0;
}

describe("execution outcome counter", () => {
  let store: Store;
  let wallet: SealedWallet;
  let apiKeyId: number;
  beforeEach(async () => {
    store = await openStore("sqlite::memory:", "./data");
    const publicKey = Keypair.generate().publicKey.toBase58();
    const r = await store.createApiKeyWithWallet("h", {
      publicKey,
      createdAt: "2026-01-01T00:00:00.000",
      ciphertext: "",
      nonce: "",
      tag: "",
      keyId: "k",
    });
    apiKeyId = r.apiKey.id;
    wallet = r.wallet;
  });
  afterEach(async () => {
    await store.close();
  });

  function run(metrics: Metrics, submit: () => Promise<SubmitResult>, kind: ExecutionKind, confirm = true) {
    const deps: ExecutionDeps = {
      store: observeOutcomes(store, (k, s) => metrics.countExecution(k, s)),
      chain: {
        assemble: () => ({ signature: `SIG${Math.random()}` }) as ChainTransaction,
        submit,
        submitBundle: async () => {
          throw new Error("not used");
        },
      },
      vault: { withKeypair: async (_w, fn) => fn(Keypair.generate()) },
    };
    return runSingleExecution({
      deps,
      apiKeyId,
      kind,
      wallet,
      request: {},
      build: () => ({ instructions: [] as TransactionInstruction[], computeKind: "trade" as const }),
      simulate: true,
      confirm,
      simulationFailedDetail: SPEC.trade.simulationFailed,
    });
  }

  it("counts confirmed, timeout, submitted and failed outcomes by kind", async () => {
    const metrics = createMetrics({ processMetrics: false });
    await run(metrics, async () => ok(true), "trade");
    await run(metrics, async () => ok(true), "trade");
    await run(metrics, async () => ok(false), "transfer");
    await run(metrics, async () => ok(false), "split", false);
    await expect(
      run(
        metrics,
        async () => {
          throw new SubmissionError("simulation_failed", SPEC.trade.simulationFailed, {}, false);
        },
        "create",
      ),
    ).rejects.toThrow();
    expect(await executions(metrics, "trade", "confirmed")).toBe(2);
    expect(await executions(metrics, "transfer", "timeout")).toBe(1);
    expect(await executions(metrics, "split", "submitted")).toBe(1);
    expect(await executions(metrics, "create", "failed")).toBe(1);
    expect(await executions(metrics, "trade", "failed")).toBe(0);
  });

  it("the wrapped store still answers every other method, and an observer that throws changes nothing", async () => {
    const wrapped = observeOutcomes(store, () => {
      throw new Error("boom");
    });
    expect(wrapped.dialect).toBe("sqlite");
    expect((await wrapped.listWallets(apiKeyId)).map((w) => w.publicKey)).toEqual([wallet.publicKey]);
    await wrapped.insertExecution(newExecution(apiKeyId, wallet.publicKey, { id: "e1" }));
    const r = await wrapped.updateExecution("e1", { status: "confirmed" });
    expect(r?.status).toBe("confirmed");
  });

  it("an outcome written to no record (unknown id) is not counted", async () => {
    const seen: [ExecutionKind, ExecutionStatus][] = [];
    const wrapped = observeOutcomes(store, (k, s) => seen.push([k, s]));
    await wrapped.updateExecution("missing", { status: "failed" });
    expect(seen).toEqual([]);
  });
});

describe("createMetrics", () => {
  it("each call has its own registry with process metrics unless turned off", async () => {
    const a = createMetrics();
    const b = createMetrics({ processMetrics: false });
    expect(a.registry).not.toBe(b.registry);
    expect(await a.registry.metrics()).toContain("process_cpu_user_seconds_total");
    expect(await b.registry.metrics()).not.toContain("process_cpu_user_seconds_total");
    a.observeRequest("GET", "/healthz", 200, 0.01);
    expect(await a.registry.metrics()).toContain(
      'lasertrade_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"} 1',
    );
    expect(await b.registry.metrics()).not.toContain('route="/healthz"');
  });
});

describe("relay metrics", () => {
  it("times acceptances and counts failures per relay; the observer logs name, reason and error text only", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const logged: object[] = [];
    const observer = relayMetricsObserver(metrics, { warn: (o) => logged.push(o) });
    observer.accepted("jito-ny", 0.012);
    observer.accepted("jito-ny", 0.3);
    observer.failed("jito-frankfurt", "http_429", new Error("sendTransaction: HTTP 429: Too many requests"));
    const accept = await metrics.registry.getSingleMetric("lasertrade_relay_accept_seconds")?.get();
    const count = accept?.values.find(
      (v) => v.labels.relay === "jito-ny" && (v as { metricName?: string }).metricName?.endsWith("_count"),
    );
    expect(count?.value).toBe(2);
    const errors = await metrics.registry.getSingleMetric("lasertrade_relay_errors_total")?.get();
    expect(errors?.values).toEqual([{ labels: { relay: "jito-frankfurt", reason: "http_429" }, value: 1 }]);
    expect(logged).toEqual([
      {
        relay: "jito-frankfurt",
        reason: "http_429",
        err: { message: "sendTransaction: HTTP 429: Too many requests" },
      },
    ]);
  });
});
