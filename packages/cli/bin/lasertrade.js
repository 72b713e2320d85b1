#!/usr/bin/env node
// The bin npm links at install time. It is committed (dist/ is built later, by `prepare`), because npm links
// no bin whose file does not exist yet, and `npx lasertrade` would then look for a registry package instead.
import { existsSync } from "node:fs";

const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("lasertrade is not built yet: run `npm run build` in the lasertrade checkout\n");
  process.exit(1);
}
await import(main.href);
