import { defineConfig } from "vitest/config";

// Generous: they only matter when something hangs, and two workers on 2 cores slow cold starts of the
// multi-process files (a localnet + two services) past a minute on a loaded machine.
const timeouts = { testTimeout: 120_000, hookTimeout: 180_000 };
// Issue 23: every answer of a test app must match the OpenAPI document (test/helpers/openapi-validate.ts).
const setupFiles = ["test/helpers/openapi-setup.ts"];
// Files that run everything in their own process (app, in-process localnet): they share one module graph.
const inProcess = [
  "test/unit/**/*.test.ts",
  "test/localnet/**/*.test.ts",
  "test/e2e/**/*.test.ts",
  "test/security/**/*.test.ts",
];

export default defineConfig({
  test: {
    // Vitest runs the two pools below side by side. Pool options are shared by the projects, so they are set
    // here: the thread pool shares one module graph across its files instead of importing the SDKs again for
    // every file (unit tests 195 s -> 42 s, localnet 75 s -> 24 s, e2e collect 28 s in all), which is safe
    // because those files mock nothing, stub no global, write no environment variable and close what they
    // open. Files that start child processes, databases or Redis keep a process of their own (forks), two at
    // a time as before; with the thread beside them three files run at once on the 2 cores, most of them
    // waiting on localnet slots and child processes.
    poolOptions: {
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
      forks: { isolate: true, maxForks: 2, minForks: 1 },
    },
    projects: [
      { test: { name: "in-process", include: inProcess, pool: "threads", ...timeouts, setupFiles } },
      {
        test: {
          name: "own-process",
          include: ["test/**/*.test.ts"],
          exclude: inProcess,
          pool: "forks",
          ...timeouts,
          setupFiles,
        },
      },
    ],
  },
});
