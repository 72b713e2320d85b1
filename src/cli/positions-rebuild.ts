/** Entry of `npm run positions:rebuild` (see positions-rebuild-command.ts and docs/positions.md). */
import { positionsRebuildCommand } from "./positions-rebuild-command.js";

process.exitCode = await positionsRebuildCommand(process.env, process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
