/** Time as the pollers see it; tests pass a fake that advances on sleep. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Wall-clock time and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
