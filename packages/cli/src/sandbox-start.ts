/**
 * The start of `lasertrade sandbox` (issue 22): refuse a busy port before spawning anything, and follow the
 * service's own start-up steps (sent over the IPC channel, src/runtime/start-progress.ts) instead of polling a
 * port another instance may answer on.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** One start-up step as the service sends it (the shape of src/runtime/start-progress.ts). */
export type StartStep =
  | { step: "database"; path: string; existing: boolean }
  | { step: "localnet"; rpcUrl: string }
  | { step: "notice"; message: string }
  | { step: "listening"; url: string };

/** True when nothing can bind `host:port` because something already listens there. */
export function portInUse(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (e: NodeJS.ErrnoException) =>
      e.code === "EADDRINUSE" || e.code === "EACCES" ? resolve(true) : reject(e),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** Whether a lasertrade service answers on the URL (its /healthz), to name the other program in the message. */
async function lasertradeAnswers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
  return res !== null && res.ok;
}

/**
 * Refuses to start when the service or localnet port is taken, with a message that names what holds it and
 * the option that picks another port.
 */
export async function refuseBusyPorts(o: {
  host: string;
  port: number;
  localnetPort: number;
}): Promise<void> {
  if (await portInUse(o.port, o.host)) {
    const url = `http://127.0.0.1:${o.port}`;
    const other = (await lasertradeAnswers(url))
      ? `another lasertrade service already answers on ${url} (a sandbox started earlier?)`
      : `port ${o.port} is already in use by another program`;
    throw new Error(`${other}: stop it, or start this sandbox on a free port with --port <port>`);
  }
  if (await portInUse(o.localnetPort, "127.0.0.1"))
    throw new Error(
      `localnet port ${o.localnetPort} is already in use (another sandbox's localnet, or \`npm run localnet\`?): ` +
        "stop it, or start this sandbox with --localnet-port <port>",
    );
}

/** The human line for one step. */
export function describeStep(s: StartStep): string {
  switch (s.step) {
    case "database":
      return `✓ database migrated: ${s.path}${s.existing ? " (kept from an earlier run)" : " (new)"}`;
    case "localnet":
      return `✓ localnet up: ${s.rpcUrl}`;
    case "notice":
      return s.message;
    case "listening":
      return `✓ listening: ${s.url} (API docs: ${s.url}/docs, console: ${s.url}/console)`;
  }
}

function isStartMessage(m: unknown): m is { lasertradeStart: StartStep } {
  return typeof m === "object" && m !== null && "lasertradeStart" in m;
}

/**
 * Prints each step the child reports (on `print`) and resolves with the URL it listens on; rejects with the
 * log's last lines when the child exits first, or after `timeoutMs`.
 */
export function followStart(
  child: ChildProcess,
  o: { logFile: string; timeoutMs: number; print: (line: string) => void },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`the service did not start within ${o.timeoutMs / 1000} s (log: ${o.logFile})`));
    }, o.timeoutMs);
    const onMessage = (m: unknown) => {
      if (!isStartMessage(m)) return;
      o.print(describeStep(m.lasertradeStart));
      if (m.lasertradeStart.step === "listening") {
        cleanup();
        resolve(m.lasertradeStart.url);
      }
    };
    const onExit = () => {
      cleanup();
      const tail = readFileSync(o.logFile, "utf8").split("\n").slice(-15).join("\n");
      reject(new Error(`the service exited during start-up; last lines of ${o.logFile}:\n${tail}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}
