/** Background upkeep of a service process: tasks run at start and then every interval, never overlapping. */

/** One named piece of upkeep; a failure is reported and retried on the next tick. */
export interface MaintenanceTask {
  name: string;
  run(): Promise<unknown>;
}

/** Options of `startMaintenance`. */
export interface MaintenanceOptions {
  intervalMs: number;
  onError: (task: string, e: unknown) => void;
}

/** Runs the tasks now and then every `intervalMs`; returns a stop function that waits for a running tick. */
export function startMaintenance(tasks: MaintenanceTask[], options: MaintenanceOptions): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    for (const task of tasks) {
      if (stopped) return;
      try {
        await task.run();
      } catch (e) {
        options.onError(task.name, e);
      }
    }
  };
  let running = tick();
  const schedule = (): void => {
    timer = setTimeout(() => {
      running = tick().then(() => {
        if (!stopped) schedule();
      });
    }, options.intervalMs);
    timer.unref();
  };
  void running.then(() => {
    if (!stopped) schedule();
  });
  return async () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    await running;
  };
}
