/** Entry of `npm run rotate-keys` (see rotate-keys-command.ts and docs/operations.md). */
import { rotateKeysCommand } from "./rotate-keys-command.js";

process.exitCode = await rotateKeysCommand(process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
