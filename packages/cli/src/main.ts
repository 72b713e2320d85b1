#!/usr/bin/env node
/** `lasertrade` entry: runs the command; an error prints its detail on stderr and exits non-zero. */
import { CommanderError } from "commander";
import { LaserTradeError } from "@lasertrade/client";
import { buildProgram } from "./program.js";
import { errorLines, exitCodeOfError } from "./outcome.js";

const json = process.argv.includes("--json");
try {
  await buildProgram().exitOverride().parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode);
  if (e instanceof LaserTradeError) {
    if (json) process.stderr.write(`${JSON.stringify({ status: e.status, ...e.body, detail: e.detail })}\n`);
    else process.stderr.write(`${errorLines(e).join("\n")}\n`);
  } else process.stderr.write(`error: ${(e as Error).message}\n`);
  process.exit(exitCodeOfError(e));
}
