/** src/http/hooks/request-logger.ts: a request's pino child is made only when the request writes a line. */
import { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../src/runtime/logger.js";
import { lazyRequestLogger } from "../../../src/http/hooks/request-logger.js";

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      cb();
    },
  });
  return { logger: createLogger(level, stream), lines };
}

describe("lazy request logger", () => {
  it("makes no child for lines below the level, and writes enabled ones with the request id", async () => {
    const { logger, lines } = capture("warn");
    const child = vi.spyOn(logger, "child");
    const log = lazyRequestLogger(logger as unknown as FastifyBaseLogger, { reqId: "r-1" }, {});
    log.info("incoming request");
    log.debug({ a: 1 }, "detail");
    expect(child).not.toHaveBeenCalled();
    expect(log.level).toBe("warn");
    log.warn({ api_key: "secret" }, "refused");
    log.error("failed");
    expect(child).toHaveBeenCalledTimes(1);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ["r-1", "refused"],
      ["r-1", "failed"],
    ]);
    // The redaction still applies (the lines come from the real child).
    expect(lines[0]!.api_key).toBe("[redacted]");
  });

  it("a route's own options make the child at once", () => {
    const { logger } = capture("info");
    const child = vi.spyOn(logger, "child");
    lazyRequestLogger(logger as unknown as FastifyBaseLogger, { reqId: "r-2" }, { level: "error" });
    expect(child).toHaveBeenCalledWith({ reqId: "r-2" }, { level: "error" });
  });

  it("children and level changes go to the real child", async () => {
    const { logger, lines } = capture("warn");
    const log = lazyRequestLogger(logger as unknown as FastifyBaseLogger, { reqId: "r-3" }, {});
    log.level = "info";
    log.info("now written");
    log.child({ part: "x" }).warn("nested");
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.reqId, l.part, l.msg])).toEqual([
      ["r-3", undefined, "now written"],
      ["r-3", "x", "nested"],
    ]);
  });
});
