/** The shared security suite: every authenticated route refuses a missing and an unknown x-api-key. */
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** Asserts 401 {detail} for a missing, an empty and an unknown key on `method url`. */
export async function expectAuthRequired(
  app: FastifyInstance,
  method: Method,
  url: string,
  payload: unknown = {},
): Promise<void> {
  const withBody = method !== "GET" && method !== "DELETE";
  const cases: (Record<string, string> | undefined)[] = [
    undefined,
    { "x-api-key": "" },
    { "x-api-key": "lt_this-key-was-never-issued" },
  ];
  for (const headers of cases) {
    const res = await app.inject({
      method,
      url,
      ...(headers !== undefined ? { headers } : {}),
      ...(withBody ? { payload: payload as Record<string, unknown> } : {}),
    });
    expect(res.statusCode, `${method} ${url} with ${JSON.stringify(headers)}`).toBe(401);
    const body = res.json<{ detail: unknown }>();
    expect(typeof body.detail).toBe("string");
    expect(Object.keys(body)).toEqual(["detail"]);
  }
}
