import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Issue 23: every answer of a test app must match the OpenAPI document (test/helpers/openapi-validate.ts).
    setupFiles: ["test/helpers/openapi-setup.ts"],
  },
});
