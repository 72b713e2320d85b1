/** Issue 29: which counters a request spends, the refusal sampling rule and the in-memory countAll. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config.js";
import { keyBudgets } from "../../../src/http/hooks/budgets.js";
import { refusalRowCount } from "../../../src/http/hooks/custody.js";
import { memoryRequestCounter } from "../../../src/http/hooks/request-counters.js";

const key = { id: 12, accountId: 3 };
const names = (env: Record<string, string>, cls: "reads" | "refusals") =>
  keyBudgets(loadConfig(env).hardening, cls, key).map((b) => [b.name, b.limit]);

describe("keyBudgets", () => {
  it("counts the account alone when its figure is not above the key's (the default)", () => {
    expect(names({}, "reads")).toEqual([["reads:account:3", 600]]);
    expect(names({}, "refusals")).toEqual([["refusals:account:3", 60]]);
  });
  it("counts the key and the account when the account may do more than one key", () => {
    expect(names({ RATE_LIMIT_ACCOUNT_READS: "2400" }, "reads")).toEqual([
      ["reads:key:12", 600],
      ["reads:account:3", 2400],
    ]);
    expect(names({ RATE_LIMIT_ACCOUNT_READS: "0" }, "reads")).toEqual([["reads:key:12", 600]]);
    expect(names({ RATE_LIMIT_READS: "0" }, "reads")).toEqual([]);
    expect(names({ RATE_LIMIT_READS: "0", RATE_LIMIT_ACCOUNT_READS: "50" }, "reads")).toEqual([
      ["reads:account:3", 50],
    ]);
  });
  it("the account's 429 names the account", () => {
    const [b] = keyBudgets(loadConfig({}).hardening, "reads", key);
    expect(b!.detail(7)).toBe(
      "rate limit of 600 reads requests per 60 s for this account (all its keys) reached; retry in 7 s",
    );
  });
});

describe("refusalRowCount", () => {
  it("writes rows at 1, 2, 4, 8… standing for the refusals since the previous row", () => {
    const rows = Array.from({ length: 100 }, (_, i) => refusalRowCount(i + 1));
    expect(rows.filter((n) => n > 0)).toEqual([1, 1, 2, 4, 8, 16, 32]);
    expect(rows.reduce((s, n) => s + n, 0)).toBe(64);
  });
});

describe("memoryRequestCounter.countAll", () => {
  it("counts each name once per call, in order, per window", async () => {
    const c = memoryRequestCounter();
    expect(await c.countAll(["a", "b"], 0, 1000)).toEqual([1, 1]);
    expect(await c.countAll(["b", "a"], 0, 1000)).toEqual([2, 2]);
    expect(await c.count("a", 0, 1000)).toBe(3);
    expect(await c.countAll(["a"], 1000, 1000)).toEqual([1]);
  });
});
