/** Soak figures: a measured value beside its goal, and their plain-text / Markdown forms. */

/** One measured figure. `met` is undefined for figures without a goal (informational). */
export interface Figure {
  name: string;
  value: string;
  goal?: string;
  met?: boolean;
}

/** A scenario's figures. */
export interface ScenarioReport {
  scenario: string;
  /** One line: what was run (counts, concurrency, faults). */
  setup: string;
  figures: Figure[];
  seconds: number;
}

/** A figure with a goal. */
export function goal(name: string, value: string | number, goalText: string, met: boolean): Figure {
  return { name, value: String(value), goal: goalText, met };
}

/** A figure without a goal. */
export function info(name: string, value: string | number): Figure {
  return { name, value: String(value) };
}

/** Figures whose goal was not met. */
export function unmet(reports: ScenarioReport[]): { scenario: string; figure: Figure }[] {
  return reports.flatMap((r) =>
    r.figures.filter((f) => f.met === false).map((figure) => ({ scenario: r.scenario, figure })),
  );
}

/** A percentage with one decimal ("99.5 %"). */
export function pct(part: number, whole: number): string {
  return whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(part === whole ? 0 : 1)} %`;
}

/** Markdown: one table per scenario. */
export function toMarkdown(reports: ScenarioReport[]): string {
  const out: string[] = [];
  for (const r of reports) {
    out.push(`### ${r.scenario}`, "", `${r.setup} (${r.seconds.toFixed(0)} s)`, "");
    out.push("| figure | measured | goal | met |", "|---|---|---|---|");
    for (const f of r.figures) {
      const met = f.met === undefined ? "" : f.met ? "yes" : "**no**";
      out.push(`| ${f.name} | ${f.value} | ${f.goal ?? ""} | ${met} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
