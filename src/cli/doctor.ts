/** Entry of `npm run doctor` (see doctor-command.ts and docs/operations.md, "Going to mainnet"). */
import { doctorCommand } from "./doctor-command.js";

process.exitCode = await doctorCommand(process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
