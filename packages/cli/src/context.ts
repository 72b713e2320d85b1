/** The context every command runs in: output mode, the config (file, environment, global options), a client. */
import { LaserTrade } from "@lasertrade/client";
import { configPath, loadConfig, type CliConfig } from "./config-file.js";
import { followExecution } from "./follow.js";
import { withProgress } from "./progress.js";
import {
  EXIT,
  exitCodeOf,
  phaseLines,
  sentTransactions,
  unconfirmedAnswer,
  unconfirmedLine,
} from "./outcome.js";
import { describe, explorerLink, MAINNET_EXPLORER, toJson } from "./render.js";

/** What every command needs: output mode, the config and a client. */
export class Context {
  constructor(
    readonly json: boolean,
    readonly env: NodeJS.ProcessEnv,
    /** The global --url and --api-key, which override the environment and the config file. */
    readonly overrides: { url?: string; apiKey?: string } = {},
  ) {}

  /** The stored config, with LASERTRADE_URL / LASERTRADE_API_KEY and then --url / --api-key overriding it. */
  async config(): Promise<CliConfig> {
    const stored = await loadConfig(configPath(this.env));
    const baseUrl = this.overrides.url ?? this.env.LASERTRADE_URL ?? stored?.baseUrl;
    const apiKey = this.overrides.apiKey ?? this.env.LASERTRADE_API_KEY ?? stored?.apiKey;
    if (baseUrl === undefined || apiKey === undefined)
      throw new Error("no API key configured: run `lasertrade setup` (or `lasertrade sandbox`) first");
    return { ...stored, baseUrl, apiKey };
  }

  async client(): Promise<LaserTrade> {
    const { baseUrl, apiKey } = await this.config();
    return new LaserTrade({ baseUrl, apiKey });
  }

  /** Prints a result: JSON with --json, else a table with explorer links for signatures. */
  async print(value: unknown): Promise<void> {
    if (this.json) {
      process.stdout.write(`${toJson(value)}\n`);
      return;
    }
    const template = this.env.LASERTRADE_EXPLORER ?? (await this.config().catch(() => undefined))?.explorer;
    process.stdout.write(`${describe(value, (sig) => explorerLink(template ?? MAINNET_EXPLORER, sig))}\n`);
  }

  /** Follows the next execution of the key on the events stream, showing each phase; returns the stop function. */
  private followPhases(client: LaserTrade, update: (phase: string) => void): () => void {
    const abort = new AbortController();
    void followExecution(client, {}, (text) => update(text), abort.signal);
    return () => abort.abort();
  }

  /**
   * Runs an execution with the progress line (TTY only, never with --json), prints its result, and says plainly
   * when it was sent but did not land in the wait (exit code 3, see outcome.ts); never "done" for that.
   */
  async execute(
    label: string,
    call: (client: LaserTrade) => Promise<unknown>,
    confirm = true,
  ): Promise<void> {
    const client = await this.client();
    const start = Date.now();
    const tty = !this.json && process.stderr.isTTY === true;
    // A bundle that did not land in the wait is the spec's 502, but no failure: shown like an unconfirmed trade.
    const run = () =>
      call(client).catch((e: unknown) => {
        const unconfirmed = unconfirmedAnswer(e);
        if (unconfirmed === undefined) throw e;
        return unconfirmed;
      });
    const result = tty
      ? await withProgress(
          `${label} (build, send, wait to land)`,
          run,
          process.stderr,
          (r, s) => phaseLines(r, confirm, s),
          // Issue 20: while it waits to land, the events stream tells the phases reached so far.
          confirm ? (update) => this.followPhases(client, update) : undefined,
        )
      : await run();
    await this.print(result);
    const code = exitCodeOf(result, confirm);
    if (code === EXIT.unconfirmed && !tty) {
      const seconds = (Date.now() - start) / 1000;
      for (const t of sentTransactions(result).filter((x) => !x.confirmed))
        process.stderr.write(`${unconfirmedLine(t, seconds)}\n`);
    }
    process.exitCode = code;
  }
}
