/**
 * Adds package-lock.json entries for platform-specific optional packages (other operating systems and
 * CPUs) that the npm registry mirror of our build machines does not serve. npm omits such packages from
 * the lock when it cannot fetch their manifests, and `npm ci` then refuses the lock as out of sync. An
 * entry with `os`/`cpu` set and `optional: true` is skipped on every other platform without a fetch.
 * Run after any `npm install` that changes the lock: `npm run lock:platforms`.
 */
import { readFileSync, writeFileSync } from "node:fs";

const OSES = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32"];
const CPUS = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x"];

/** The os / cpu / libc a platform package is built for, read from its name. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = OSES.find((o) => parts.includes(o));
  const cpu = CPUS.find((c) => parts.includes(c));
  const libc =
    parts.includes("musl") || parts.includes("musleabihf")
      ? "musl"
      : parts.includes("gnu") || parts.includes("gnueabihf")
        ? "glibc"
        : undefined;
  return { os, cpu, libc };
}

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
const added = [];
for (const meta of Object.values(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (packages[key]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || !cpu) throw new Error(`cannot tell the platform of optional package ${dep}`);
    // Flags as npm itself writes them: a dev dependency's platform packages are dev too.
    const dev = meta.dev === true || meta.devOptional === true ? { dev: true } : {};
    packages[key] = {
      version,
      cpu: [cpu],
      ...dev,
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added.push(`${dep}@${version}`);
  }
}
const sorted = Object.keys(packages).sort((a, b) => a.localeCompare(b, "en"));
lock.packages = Object.fromEntries(sorted.map((k) => [k, packages[k]]));
writeFileSync(path, JSON.stringify(lock, null, 2) + "\n");
console.log(added.length === 0 ? "lock complete" : `added ${added.length}: ${added.join(", ")}`);
