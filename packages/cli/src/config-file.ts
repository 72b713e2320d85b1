/** The CLI's config file: the service URL and API key, readable by the owner only (mode 0600). */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface CliConfig {
  baseUrl: string;
  apiKey: string;
  /** Transaction link template with `{signature}`; default a mainnet explorer. */
  explorer?: string;
}

/** $LASERTRADE_CONFIG, else ~/.config/lasertrade/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.LASERTRADE_CONFIG;
  if (explicit !== undefined && explicit !== "") return explicit;
  return join(homedir(), ".config", "lasertrade", "config.json");
}

/** The stored config, or undefined when there is none. */
export async function loadConfig(path: string): Promise<CliConfig | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  const parsed = JSON.parse(text) as Partial<CliConfig>;
  if (typeof parsed.baseUrl !== "string" || typeof parsed.apiKey !== "string")
    throw new Error(`${path} needs "baseUrl" and "apiKey"`);
  return parsed as CliConfig;
}

/**
 * Writes the config with mode 0600 (its directory 0700), through a temporary file so a crash never leaves
 * half a key. A config for another service is kept beside it (`.bak-<time>`): an API key cannot be shown again.
 */
export async function saveConfig(path: string, config: CliConfig): Promise<string | undefined> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const previous = await loadConfig(path).catch(() => undefined);
  let backup: string | undefined;
  if (previous !== undefined && (previous.baseUrl !== config.baseUrl || previous.apiKey !== config.apiKey)) {
    // Never overwritten: each replaced key gets its own file.
    backup = `${path}.bak-${Date.now()}`;
    await rename(path, backup);
    await chmod(backup, 0o600);
  }
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
  return backup;
}
