/** Command-line flags of the standalone bench scripts (bench/options.ts holds `npm run bench`'s own). */

/** The number after `--name` in `argv`, or `fallback` when the flag is absent (as given: not validated). */
export function numberFlag(argv: readonly string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}

/** As numberFlag, but a value given must be a non-negative number: otherwise it throws, naming the flag. */
export function countFlag(argv: readonly string[], name: string, fallback: number): number {
  const v = numberFlag(argv, name, fallback);
  if (!(Number.isFinite(v) && v >= 0)) throw new Error(`--${name} needs a non-negative number`);
  return v;
}

/** The word after `--name` in `argv`, or undefined when the flag is absent. */
export function optionalFlag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** The word after `--name` in `argv`, or `fallback` when the flag is absent. */
export function stringFlag(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback;
}
