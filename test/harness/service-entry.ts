/**
 * Entry of a service process started by the harness: the real `src/main.ts`, plus one guard — when the
 * parent's pipe on standard input closes (the parent exited or crashed), the service shuts down as on
 * SIGTERM, so a failed test run leaves no process behind. SIGKILL still kills this very process.
 */
process.stdin.on("end", () => process.kill(process.pid, "SIGTERM"));
process.stdin.on("error", () => process.kill(process.pid, "SIGTERM"));
process.stdin.resume();
await import("../../src/main.js");
