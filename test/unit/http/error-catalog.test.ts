/**
 * Issue 30 item 4: the error catalog. Every code is unique and snake_case, every catalog text resolves to its
 * own code, policy refusals and chain failures get theirs, and no ApiError in src/ is built from free text
 * (a text outside the catalog would answer with a generic code only).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXECUTION, FOUNDATION, HARDENING, SPEC, TRADE_RULES } from "../../../src/core/errors.js";
import { CUSTODY } from "../../../src/domain/keys/texts.js";
import {
  allCodes,
  buildErrorCatalog,
  codeOf,
  codesByStatus,
  ERROR_CATALOG,
} from "../../../src/http/hooks/error-catalog.js";

const CODE = /^[a-z]+(\.[a-z0-9]+(_[a-z0-9]+)*)+$/;

describe("the error catalog", () => {
  it("gives every entry a unique snake_case code <capability>.<condition> and at least one status", () => {
    const codes = allCodes(ERROR_CATALOG);
    expect(codes.length).toBeGreaterThan(200);
    expect(new Set(codes.map((c) => c.code)).size).toBe(codes.length);
    for (const c of codes) {
      expect(c.code, c.code).toMatch(CODE);
      expect(c.statuses.length, c.code).toBeGreaterThan(0);
      for (const s of c.statuses) expect(s >= 400 && s < 600, `${c.code} ${s}`).toBe(true);
    }
  });

  it("resolves every catalog text (templates filled in) back to its own code", () => {
    for (const e of ERROR_CATALOG.entries) {
      const text = e.sample.replace(/…/g, "x1");
      for (const status of e.statuses) expect(ERROR_CATALOG.codeOfText(text, status), e.source).toBe(e.code);
    }
  });

  it("names the spec's texts by capability, and a text listed twice has one code", () => {
    const of = (detail: string, status = 400): string | undefined => ERROR_CATALOG.codeOfText(detail, status);
    expect(of(SPEC.trade.simulationFailed)).toBe("trade.simulation_failed");
    expect(of(SPEC.create.simulationFailed)).toBe("create.simulation_failed");
    expect(of(FOUNDATION.apiKeyInvalid, 401)).toBe("auth.invalid_key");
    expect(of(FOUNDATION.walletNotFound, 404)).toBe("wallets.not_found");
    expect(of(SPEC.consolidate.lowBalancePrefix + "wallet x has 1 lamports")).toBe("consolidate.low_balance");
    expect(of(SPEC.transfer.invalidDestination)).toBe(of(SPEC.consolidate.invalidDestination));
    expect(of(TRADE_RULES.mintInvalid)).toBe("launch.invalid_mint");
    expect(of(CUSTODY.bodyObject)).toBe(of(EXECUTION.bodyObject));
    expect(of(HARDENING.rateLimited("trade", 10, 60, 3), 429)).toBe("limits.rate_limited");
    expect(of(HARDENING.accountRateLimited("trade", 10, 60, 3), 429)).toBe("limits.account_rate_limited");
    expect(of(CUSTODY.missingScope("trade"), 403)).toBe("keys.missing_scope");
    // A template matches only at its own statuses: a short one must not swallow an upstream's words.
    expect(of("relay refused: bad request", 502)).toBeUndefined();
    expect(of("not in the catalog")).toBeUndefined();
  });

  it("codes a policy 403 by its rule, a chain failure by its reason, anything else by its status", () => {
    const c = ERROR_CATALOG;
    const policy = { status: 403, detail: "policy venues: the launchswap venue is not allowed for this key" };
    expect(codeOf(c, { ...policy, extra: { rule: "venues" } })).toBe("keys.policy_refused");
    expect(codeOf(c, { status: 403, detail: CUSTODY.keyFrozen, extra: { rule: "frozen" } })).toBe(
      "keys.key_frozen",
    );
    expect(codeOf(c, { status: 502, detail: "HTTP 503 from the relay", chainReason: "relay_refused" })).toBe(
      "chain.relay_refused",
    );
    expect(
      codeOf(c, { status: 400, detail: SPEC.trade.simulationFailed, chainReason: "simulation_failed" }),
    ).toBe("trade.simulation_failed");
    expect(codeOf(c, { status: 502, detail: "socket hang up" })).toBe("upstream.error");
    expect(codeOf(c, { status: 400, detail: "free text" })).toBe("http.bad_request");
  });

  it("refuses two different texts under one code", () => {
    expect(() =>
      buildErrorCatalog([
        { capability: "a", texts: { one: "first" } },
        { capability: "a", texts: { one: "second" } },
      ]),
    ).toThrow(/a\.one/);
  });

  it("lists, for each status, the codes it can come with", () => {
    const by = codesByStatus(ERROR_CATALOG);
    expect(by.get(400)).toContain("trade.simulation_failed");
    expect(by.get(400)).toContain("http.validation_failed");
    expect(by.get(401)).toEqual(expect.arrayContaining(["auth.missing_key", "auth.invalid_key"]));
    expect(by.get(403)).toContain("keys.policy_refused");
    expect(by.get(404)).toContain("http.route_not_found");
    expect(by.get(413)).toEqual(["http.body_too_large"]);
    expect(by.get(415)).toEqual(["http.unsupported_content_type"]);
    expect(by.get(429)).toContain("limits.rate_limited");
    expect(by.get(500)).toEqual(["http.internal"]);
    expect(by.get(502)).toContain("chain.rpc_unavailable");
    expect(by.get(503)).toEqual(["execution.chain_not_ready", "execution.chain_unavailable"]);
  });
});

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("errors built in src/", () => {
  it("take their detail from the catalog, never from a string written at the call", () => {
    // badRequest("…"), upstreamError(`…`), new ApiError(400, "…"): a text only the call site knows.
    const freeText = /(?:badRequest|upstreamError)\(\s*[`'"]|new ApiError\(\s*[^,()]+,\s*[`'"]/g;
    const found: string[] = [];
    for (const file of sources("src")) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(freeText)) {
        const line = text.slice(0, m.index).split("\n").length;
        found.push(`${file}:${line}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the scan finds a free-text error (it can fail)", () => {
    const freeText = /(?:badRequest|upstreamError)\(\s*[`'"]|new ApiError\(\s*[^,()]+,\s*[`'"]/g;
    expect("throw badRequest(`${name} must be a ${type}`)".match(freeText)).not.toBeNull();
    expect('throw new ApiError(404,\n "nope")'.match(freeText)).not.toBeNull();
    expect("throw badRequest(SPEC.trade.badAction)".match(freeText)).toBeNull();
  });
});
