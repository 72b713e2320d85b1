/** A spinner line on stderr while a call runs (only on a TTY: pipes and --json output stay clean). */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/**
 * Runs `work`, showing `label` with a spinner and the elapsed time; ends with ✓ or ✗ and the time taken, or with
 * the lines `finish` makes of the result (an execution's phases: never "done" for one that did not land).
 */
export async function withProgress<T>(
  label: string,
  work: () => Promise<T>,
  out: NodeJS.WriteStream = process.stderr,
  finish?: (result: T, seconds: number) => string[],
  /** Starts following the work's phases (issue 20: the events stream); `update` sets the phase shown; returns stop. */
  follow?: (update: (phase: string) => void) => () => void,
): Promise<T> {
  if (out.isTTY !== true) return work();
  const start = Date.now();
  const seconds = () => `${((Date.now() - start) / 1000).toFixed(1)}s`;
  let frame = 0;
  let phase = "";
  const draw = () =>
    out.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label}${phase && `: ${phase}`} ${seconds()}`);
  draw();
  const timer = setInterval(draw, FRAME_MS);
  const stopFollowing = follow?.((p) => {
    phase = p;
    draw();
  });
  try {
    const result = await work();
    const lines = finish?.(result, (Date.now() - start) / 1000) ?? [];
    if (lines.length > 0) out.write(`\r\x1b[2K${label}\n${lines.join("\n")}\n`);
    else out.write(`\r\x1b[2K✓ ${label} done in ${seconds()}\n`);
    return result;
  } catch (e) {
    out.write(`\r\x1b[2K✗ ${label} failed after ${seconds()}\n`);
    throw e;
  } finally {
    clearInterval(timer);
    stopFollowing?.();
  }
}
