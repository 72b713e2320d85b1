/**
 * Issue 30: internal labels such as "(issue 19)" are for the code's history, not for users: none in any CLI
 * command's help, none in a README heading.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../packages/cli/src/program.js";

const LABEL = /\bissues? \d+/i;

function helpOf(c: Command): string[] {
  return [c.helpInformation(), ...c.commands.flatMap((s) => helpOf(s))];
}

describe("no internal labels where users read", () => {
  it("CLI help of every command", () => {
    const leaking = helpOf(buildProgram({})).filter((h) => LABEL.test(h));
    expect(leaking.map((h) => h.split("\n").find((l) => LABEL.test(l)))).toEqual([]);
  });

  it("README headings", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const headings = readme.split("\n").filter((l) => /^#{1,6} /.test(l) && LABEL.test(l));
    expect(headings).toEqual([]);
  });
});
