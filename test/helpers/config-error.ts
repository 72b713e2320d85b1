/** The ConfigError `loadConfig(env)` throws (fails the test when it does not throw one). */
import { ConfigError, loadConfig } from "../../src/config/config.js";

export function configErrorOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}
