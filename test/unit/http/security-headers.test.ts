/** src/http/hooks/security-headers.ts: helmet's headers computed once, the same as its middleware sets per response. */
import type { ServerResponse } from "node:http";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { helmetHeaders } from "../../../src/http/hooks/security-headers.js";

const options = { contentSecurityPolicy: { directives: { "default-src": ["'none'"] } } };

describe("helmet headers", () => {
  it("are the headers helmet's middleware sets on a response", () => {
    const set = new Map<string, string>();
    const res = {
      setHeader: (name: string, value: unknown) => set.set(name.toLowerCase(), String(value)),
      removeHeader: (name: string) => set.delete(name.toLowerCase()),
    };
    helmet(options)({} as never, res as unknown as ServerResponse, () => {});
    expect(helmetHeaders(options)).toEqual(Object.fromEntries(set));
    expect(helmetHeaders(options)["content-security-policy"]).toContain("default-src 'none'");
  });

  it("refuse a CSP directive computed per request (a nonce function)", () => {
    const perRequest = { contentSecurityPolicy: { directives: { "script-src": [() => "'nonce-x'"] } } };
    expect(() => helmetHeaders(perRequest)).toThrow(/depends on the request/);
  });
});
