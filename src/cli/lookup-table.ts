/** Entry of `npm run lookup-table` (see lookup-table-command.ts and docs/operations.md). */
import { lookupTableCommand } from "./lookup-table-command.js";

process.exitCode = await lookupTableCommand(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
