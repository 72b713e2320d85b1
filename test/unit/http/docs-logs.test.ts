/**
 * Issue 29 finding 17 (the docs part): every request to /docs, /docs/json and /openapi.json logged an
 * error-level `activity row not written: … (reading 'accountId')`. No route of the document logs an error.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/runtime/logger.js";
import { buildTestApp } from "../../helpers/app.js";

/** A logger at `level` whose lines are collected in `lines`. */
function captureLogs(level: string): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  return { lines, logger: createLogger(level, sink) };
}

describe("the documentation routes", () => {
  it("answer without an error-level log line, with and without a key", async () => {
    const { lines, logger } = captureLogs("trace");
    const t = await buildTestApp({ logger });
    try {
      const { apiKey } = await t.setup();
      for (const headers of [{}, { "x-api-key": apiKey }, { "x-api-key": "lt_never-issued" }]) {
        for (const url of [
          "/docs",
          "/docs/",
          "/docs/json",
          "/docs/yaml",
          "/docs/static/index.html",
          "/openapi.json",
        ]) {
          for (const method of ["GET", "HEAD"] as const) {
            const res = await t.app.inject({ method, url, headers });
            expect(res.statusCode, `${method} ${url}`).toBeLessThan(400);
          }
        }
      }
    } finally {
      await t.close();
    }
    const errors = lines
      .map((l) => JSON.parse(l) as { level: number; msg?: string })
      .filter((l) => l.level >= 50);
    expect(errors.map((l) => l.msg)).toEqual([]);
  });
});
