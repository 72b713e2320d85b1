import { readdirSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Generous: they only matter when something hangs, and two workers on 2 cores slow cold starts of the
// multi-process files (a localnet + two services) past a minute on a loaded machine.
const timeouts = { testTimeout: 120_000, hookTimeout: 180_000 };
// Issue 23: every answer of a test app must match the OpenAPI document (test/helpers/openapi-validate.ts).
const setupFiles = ["test/helpers/openapi-setup.ts"];
// Files that run everything in their own process (app, in-process localnet): they share one module graph.
const inProcessDirs = ["test/unit", "test/localnet", "test/e2e", "test/security"];
// Files of those folders that spend their time waiting on child processes or a browser (the built CLI, the
// doctor, the vault's start-up, chromium, the README's commands): the single thread ran them one after the
// other (about 250 s of its 840 s in a timed run) while the process pool sat idle, so they get a process of
// their own and run beside the thread. Measured by `vitest run --reporter=json`, file durations.
const waitsOnProcesses = [
  /^test\/e2e\/cli\//,
  /^test\/e2e\/console\/console-(browser|orders)\.test\.ts$/,
  /^test\/e2e\/doctor\/doctor(-at-start-process)?\.test\.ts$/,
  /^test\/e2e\/http\/readme\.test\.ts$/,
  /^test\/e2e\/orders\/orders-client-cli\.test\.ts$/,
  /^test\/unit\/vault\/vault-startup\.test\.ts$/,
  // 29 Nov (second session): the thread was still the long pole (607 s of files against 568 s per fork); these
  // wait on stream heartbeats, a rate-limit minute and slots more than they compute.
  /^test\/security\/streams(-flood)?\.test\.ts$/,
  /^test\/e2e\/positions\/created-positions\.test\.ts$/,
];

/** Every test file under `dir`, as a path from the repository's root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => join(dir, f).split("\\").join("/"))
    .sort();
}

const inProcessFiles = inProcessDirs.flatMap(testFiles);
const inProcess = inProcessFiles.filter((f) => !waitsOnProcesses.some((p) => p.test(f)));
const movedOut = inProcessFiles.filter((f) => waitsOnProcesses.some((p) => p.test(f)));
const ownProcessDirs = readdirSync("test", { withFileTypes: true })
  .filter((d) => d.isDirectory() && !inProcessDirs.includes(`test/${d.name}`))
  .map((d) => `test/${d.name}/**/*.test.ts`);

export default defineConfig({
  test: {
    // Vitest runs the two pools below side by side. Pool options are shared by the projects, so they are set
    // here: the thread pool shares one module graph across its files instead of importing the SDKs again for
    // every file (unit tests 195 s -> 42 s, localnet 75 s -> 24 s, e2e collect 28 s in all), which is safe
    // because those files mock nothing, stub no global, write no environment variable and close what they
    // open. Files that start child processes, databases or Redis run in two fork workers beside the thread
    // (three files at once on the 2 cores, most of them waiting on localnet slots and child processes).
    poolOptions: {
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
      // Each of the two fork workers runs its files one after the other in one process too (29 Nov, second
      // session): importing the SDKs again for each of the ~80 files was about 200 s of CPU (`collect`) on a
      // machine where the run is CPU-bound; none of those files mocks, stubs a global or writes the environment
      // (they pass their own env to the children they start), and each closes what it starts.
      forks: { isolate: false, maxForks: 2, minForks: 1 },
    },
    projects: [
      { test: { name: "in-process", include: inProcess, pool: "threads", ...timeouts, setupFiles } },
      {
        test: {
          name: "own-process",
          include: [...ownProcessDirs, ...movedOut],
          pool: "forks",
          ...timeouts,
          setupFiles,
        },
      },
    ],
  },
});
