/* global process */
// Preloaded into a compiled service process started by the harness (node --import): when the parent's pipe on
// standard input closes, the service shuts down as on SIGTERM (what service-entry.ts does for the tsx one).
process.stdin.on("end", () => process.kill(process.pid, "SIGTERM"));
process.stdin.on("error", () => process.kill(process.pid, "SIGTERM"));
process.stdin.resume();
