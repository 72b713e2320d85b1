/** DOCTOR_AT_START: the same checks as `npm run doctor`, at start, logged; "refuse" stops the start on a failure. */
import type { DoctorAtStart } from "../config/config.js";
import { runDoctor, type DoctorInput } from "./run-doctor.js";

/** The start was refused because a pre-flight check failed (DOCTOR_AT_START=refuse). */
export class DoctorRefusedError extends Error {
  constructor(failures: string[]) {
    super(`pre-flight checks failed (DOCTOR_AT_START=refuse): ${failures.join(" | ")}`);
    this.name = "DoctorRefusedError";
  }
}

interface StartLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Runs the checks per `mode`; throws DoctorRefusedError when refusing. Results name checks, never URLs or keys. */
export async function doctorAtStart(
  mode: DoctorAtStart,
  input: DoctorInput,
  logger: StartLogger,
): Promise<void> {
  if (mode === "off") return;
  const report = await runDoctor(input);
  for (const r of report.results) {
    if (r.status === "ok") continue;
    const level = r.status === "fail" && mode === "refuse" ? "error" : "warn";
    logger[level]({ check: r.name, status: r.status, detail: r.detail }, "pre-flight check");
  }
  const failures = report.results.filter((r) => r.status === "fail");
  if (failures.length === 0) {
    logger.info({ checks: report.results.length }, "pre-flight checks passed");
    return;
  }
  if (mode === "refuse") throw new DoctorRefusedError(failures.map((f) => `${f.name}: ${f.detail}`));
  logger.warn(
    { failed: failures.map((f) => f.name) },
    "pre-flight checks failed; starting anyway (DOCTOR_AT_START=warn)",
  );
}
