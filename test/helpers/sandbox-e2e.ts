/**
 * The e2e app as the sandbox runs it, on a real port: localnet, chain with the create lookup table installed
 * (create with an initial buy needs it), and the app listening on 127.0.0.1. For client and CLI tests.
 */
import { startE2eWithLookupTable, type E2e, type E2eOptions } from "./e2e.js";

/** Starts the harness and listens; `close` stops both. */
export async function startListeningE2e(
  options: E2eOptions = {},
): Promise<{ e2e: E2e; baseUrl: string; close(): Promise<void> }> {
  const e2e = await startE2eWithLookupTable(options);
  const baseUrl = await e2e.app.listen({ port: 0, host: "127.0.0.1" });
  return { e2e, baseUrl, close: () => e2e.close() };
}
