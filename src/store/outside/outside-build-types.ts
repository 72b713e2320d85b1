/** The store side of outside-wallet builds: rows kept until their blockhash window ends, each taken once. */

/** A build as stored: its message hash, the key that built it, the build's fields as JSON text. */
export interface StoredOutsideBuild {
  hash: string;
  apiKeyId: number;
  build: string;
  expiresAtMs: number;
}

/** Builds shared by every process on the database. */
export interface OutsideBuildStore {
  /** Keeps a build until `expiresAtMs` (a second build of the same message replaces an unsent one). */
  insertOutsideBuild(b: StoredOutsideBuild): Promise<void>;
  /**
   * Takes `hash`'s build for `apiKeyId` once (a conditional update: of two sends, one gets it); undefined when
   * it is unknown, another key's, expired or already taken. `peek` reads it without taking it (a dry run).
   */
  takeOutsideBuild(
    hash: string,
    apiKeyId: number,
    nowMs: number,
    peek?: boolean,
  ): Promise<string | undefined>;
  /** Deletes the builds whose window ended before `nowMs`; how many. */
  deleteExpiredOutsideBuilds(nowMs: number): Promise<number>;
}
