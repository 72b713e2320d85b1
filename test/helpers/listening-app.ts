/** A real app listening on a free port over an in-memory SQLite store, for tests that drive it as a client would. */
import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../src/config/config.js";
import { buildApp, type AppDeps } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import type { Vault } from "../../src/vault/index.js";

/** The running app, its store and its base URL. */
export interface ListeningApp {
  app: FastifyInstance;
  store: Store;
  base: string;
  /** Closes open connections (streams), the app and the store. */
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1 with a port of its own; `extra` adds or overrides dependencies (e.g. events). */
export async function listeningApp(vault: Vault, extra: Partial<AppDeps> = {}): Promise<ListeningApp> {
  const store = await openStore("sqlite::memory:", "./data");
  const app = await buildApp({
    config: loadConfig({}),
    store,
    vault,
    clock: () => new Date(),
    rateLimiter: storeRateLimiter(store),
    ...extra,
  });
  const base = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    app,
    store,
    base,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
      await store.close();
    },
  };
}
