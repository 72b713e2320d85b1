// `npm test`'s static checks, side by side: the lint (eslint, prettier) and the type check use one core each
// (about 40 s and 25 s one after the other on the 2-core CI machine). Each one's output is printed whole when it
// ends; the exit code is the first failure's.
import { spawn } from "node:child_process";

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => {
      process.stdout.write(`--- npm run ${script}: ${code === 0 ? "ok" : `exit ${code}`}\n${out}`);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all(["lint", "typecheck"].map(run));
process.exit(codes.find((c) => c !== 0) ?? 0);
