/** Run-time fault switches and per-call stats (pure state; the HTTP layer applies the decisions). */
import type { FaultSettings } from "../api.js";

/** The endpoints the localnet serves JSON-RPC on. */
export type Endpoint = "rpc" | "relay" | "relay2" | "bundle" | "route";

/**
 * What to do to one matching call: wait `beforeMs` (the way there, plus any hang), handle it (or answer the
 * injected error), then wait `afterMs` (the way back) before writing the answer.
 */
export interface FaultDecision {
  beforeMs: number;
  afterMs: number;
  error: FaultSettings["errorKind"] | null;
}

/** Holds the fault settings; decides per call. `random` is injectable so tests stay deterministic. */
export class Faults {
  private settings: FaultSettings = {};
  private remainingErrors = 0;

  constructor(private readonly random: () => number = Math.random) {}

  /** Replaces every fault setting (an empty object clears all). */
  set(settings: FaultSettings): void {
    validateFaults(settings);
    this.settings = { ...settings };
    this.remainingErrors = settings.errorCount ?? 0;
  }

  clear(): void {
    this.set({});
  }

  current(): FaultSettings {
    return {
      ...this.settings,
      ...(this.settings.errorCount !== undefined ? { errorCount: this.remainingErrors } : {}),
    };
  }

  private matches(endpoint: Endpoint, method: string): boolean {
    const s = this.settings;
    if (s.endpoints !== undefined && !s.endpoints.includes(endpoint)) return false;
    if (s.methods !== undefined && !s.methods.includes(method)) return false;
    return true;
  }

  /**
   * Decides latency / hang / injected error for a call (consumes one errorCount when it fires). The latency
   * is a round trip, half each way, so what the call does (a send executing) happens half-way; a hang is all
   * before the handling, so a hung send lands late.
   */
  decide(endpoint: Endpoint, method: string): FaultDecision {
    if (!this.matches(endpoint, method)) return { beforeMs: 0, afterMs: 0, error: null };
    const s = this.settings;
    const latencyMs = s.latencyMs ?? 0;
    const wayThere = latencyMs / 2;
    let fire = false;
    if (this.remainingErrors > 0) {
      this.remainingErrors -= 1;
      fire = true;
    } else if (s.errorRate !== undefined && s.errorRate > 0) {
      fire = this.random() < s.errorRate;
    }
    return {
      beforeMs: (s.hangMs ?? 0) + wayThere,
      afterMs: latencyMs - wayThere,
      error: fire ? this.errorKind() : null,
    };
  }

  private errorKind(): NonNullable<FaultDecision["error"]> {
    const kinds = this.settings.errorKinds;
    if (kinds !== undefined && kinds.length > 0) {
      return kinds[Math.min(kinds.length - 1, Math.floor(this.random() * kinds.length))]!;
    }
    return this.settings.errorKind ?? "http429";
  }

  /** Whether sends are accepted but never applied. */
  neverLand(): boolean {
    return this.settings.neverLand === true;
  }

  /** Whether a send is answered on acceptance and executed right after (arrival order). */
  answerOnAcceptance(): boolean {
    return this.settings.answerOnAcceptance === true;
  }

  /** Slots to delay landing by (0 = land now). */
  landAfterSlots(): number {
    return this.settings.landAfterSlots ?? 0;
  }

  /** Slots a bundle is reported Invalid before it lands (0 = none). */
  bundleInvalidSlots(): number {
    return this.settings.bundleInvalidSlots ?? 0;
  }

  bundleInvalid(): boolean {
    return this.settings.bundleInvalid === true;
  }

  bundleFailed(): boolean {
    return this.settings.bundleFailed === true;
  }
}

/** Throws on a malformed fault object (admin input). */
const ERROR_KINDS: readonly string[] = ["http429", "http500", "rpcError"];

function validateFaults(s: FaultSettings): void {
  const nonNeg = (name: string, v: unknown) => {
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) {
      throw new Error(`${name} must be a non-negative number`);
    }
  };
  nonNeg("latencyMs", s.latencyMs);
  nonNeg("hangMs", s.hangMs);
  nonNeg("errorCount", s.errorCount);
  nonNeg("landAfterSlots", s.landAfterSlots);
  nonNeg("bundleInvalidSlots", s.bundleInvalidSlots);
  nonNeg("errorRate", s.errorRate);
  if (s.errorRate !== undefined && s.errorRate > 1) throw new Error("errorRate must be within 0..1");
  if (s.errorKind !== undefined && !ERROR_KINDS.includes(s.errorKind)) {
    throw new Error("errorKind must be http429, http500 or rpcError");
  }
  if (
    s.errorKinds !== undefined &&
    !(Array.isArray(s.errorKinds) && s.errorKinds.every((k) => ERROR_KINDS.includes(k)))
  ) {
    throw new Error("errorKinds must be an array of http429, http500, rpcError");
  }
  if (
    s.endpoints !== undefined &&
    !s.endpoints.every((e) => ["rpc", "relay", "relay2", "bundle", "route"].includes(e))
  ) {
    throw new Error("endpoints must be among rpc, relay, relay2, bundle, route");
  }
  if (
    s.methods !== undefined &&
    !(Array.isArray(s.methods) && s.methods.every((m) => typeof m === "string"))
  ) {
    throw new Error("methods must be an array of strings");
  }
}

/** Calls per "<endpoint>.<method>" ("<tag>:<endpoint>.<method>" for calls tagged by the client). */
export class CallStats {
  private counts = new Map<string, number>();

  count(endpoint: Endpoint, method: string, tag?: string): void {
    const key = tag === undefined ? `${endpoint}.${method}` : `${tag}:${endpoint}.${method}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  reset(): void {
    this.counts = new Map();
  }
}
