import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous: they only matter when something hangs, and two workers on 2 cores slow cold starts of
    // the multi-process files (a localnet + two services) past a minute on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Vitest's default on 2 cores is one worker, which leaves a core idle while a file waits on its
    // localnet slots and child processes; two keep both busy (PostgreSQL tests use a schema per file).
    maxWorkers: 2,
    minWorkers: 1,
    // Issue 23: every answer of a test app must match the OpenAPI document (test/helpers/openapi-validate.ts).
    setupFiles: ["test/helpers/openapi-setup.ts"],
  },
});
