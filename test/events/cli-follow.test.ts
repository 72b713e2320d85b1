/**
 * Issue 20 item 6: the CLI's confirm progress from the events stream — the phases of the execution a command
 * started, read from GET /v1/events through the typed client, shown on the spinner line.
 */
import type { FastifyInstance } from "fastify";
import { LaserTrade } from "@lasertrade/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followExecution, phaseText } from "../../packages/cli/src/follow.js";
import { withProgress } from "../../packages/cli/src/progress.js";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import type { Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { listeningApp, type ListeningApp } from "../helpers/listening-app.js";

describe("CLI confirm progress from the events stream", () => {
  let app: FastifyInstance;
  let store: Store;
  let base: string;
  let running: ListeningApp | undefined;
  const vault = testVault();
  beforeAll(async () => {
    running = await listeningApp(vault);
    ({ app, store, base } = running);
  });
  afterAll(async () => running?.close());

  it("phase texts: recorded, sent with the signature, landed; failed and expired by name", () => {
    const e = (status: string, signatures: string[] = ["SiG"]) =>
      ({ status, signatures }) as Parameters<typeof phaseText>[0];
    expect(phaseText(e("pending"))).toBe("recorded, sending");
    expect(phaseText(e("submitted"))).toBe("submitted SiG, confirming");
    expect(phaseText(e("submitted", []))).toBe("submitted, confirming");
    expect(phaseText(e("confirmed"))).toBe("landed (confirmed)");
    expect(phaseText(e("finalized"))).toBe("landed (finalized)");
    expect(phaseText(e("timeout"))).toBe("not landed yet, still watching");
    expect(phaseText(e("failed"))).toBe("failed");
    expect(phaseText(e("expired"))).toBe("expired");
  });

  it("follows the first execution that appears, phase by phase, and stops at its final status", async () => {
    const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
    const { api_key, wallet_public_key } = res.json<{ api_key: string; wallet_public_key: string }>();
    const keyId = (await store.findApiKeyByHash(vault.hashApiKey(api_key)))!.id;
    const pending = (signature: string) =>
      recordPending(store, {
        apiKeyId: keyId,
        kind: "transfer",
        wallet: wallet_public_key,
        signatures: [signature],
        request: {},
        lastValidBlockHeight: 1,
      });
    const mine = await pending("sigMine");
    const other = await pending("sigOther");
    await recordOutcome(store, other, { status: "failed", confirmationStatus: null, error: { detail: "x" } });
    await recordOutcome(store, mine, { status: "submitted", confirmationStatus: null });
    await recordOutcome(store, mine, { status: "confirmed", confirmationStatus: "confirmed" });
    const client = new LaserTrade({ baseUrl: base, apiKey: api_key });
    const seen: string[] = [];
    const abort = new AbortController();
    // From the key's first event (a real command follows from now on): ends by itself at `mine`'s confirmation.
    await followExecution(
      client,
      { after: 0 },
      (text, e) => seen.push(`${e.execution_id === mine} ${text}`),
      abort.signal,
    );
    expect(seen).toEqual([
      "true recorded, sending",
      "true submitted sigMine, confirming",
      "true landed (confirmed)",
    ]);
  });

  it("the spinner line shows the phase the follower reports (on a terminal)", async () => {
    const written: string[] = [];
    const out = { isTTY: true, write: (s: string) => written.push(s) > 0 } as unknown as NodeJS.WriteStream;
    let stopped = false;
    const result = await withProgress(
      "sending 1 SOL",
      async () => "answer",
      out,
      undefined,
      (update) => {
        update("submitted SiG, confirming");
        return () => (stopped = true);
      },
    );
    expect(result).toBe("answer");
    expect(written.some((w) => w.includes("sending 1 SOL: submitted SiG, confirming"))).toBe(true);
    expect(stopped).toBe(true);
  });
});
