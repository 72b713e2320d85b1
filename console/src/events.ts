/**
 * The key's event stream (GET /v1/events, Server-Sent Events) read with fetch, since EventSource cannot send
 * the `x-api-key` header and the key must not go in a URL. One connection per signed-in tab, shared by every
 * page; it resumes after a drop with Last-Event-ID, so nothing is missed or repeated.
 */

/** One event as the API sends it (execution.* and position.updated). */
export interface ApiEvent {
  id: number;
  type: string;
  execution_id?: string;
  kind?: string;
  wallets?: string[];
  signatures?: string[];
  status?: string;
  error?: unknown;
  created_at: string;
  [field: string]: unknown;
}

type Listener = (e: ApiEvent) => void;

/** The shared stream: `on` registers a listener, `close` ends it. `state` is shown in the header. */
export class EventFeed {
  private readonly listeners = new Set<Listener>();
  private readonly stateListeners = new Set<(s: string) => void>();
  private readonly abort = new AbortController();
  private lastId: number | undefined;
  private closedByServer = false;
  state = "connecting";

  constructor(private readonly key: string) {
    void this.run();
  }

  /** Calls `fn` for each event from now on; returns the unsubscribe. */
  on(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Calls `fn` when the connection state changes; returns the unsubscribe. */
  onState(fn: (s: string) => void): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  close(): void {
    this.abort.abort();
  }

  private setState(s: string): void {
    this.state = s;
    for (const fn of this.stateListeners) fn(s);
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      let waitMs = 1000;
      this.closedByServer = false;
      try {
        const refused = await this.readOnce();
        // A key refused (revoked, expired, no read scope) stays refused: retrying would only count as invalid-key
        // attempts of this IP. Signing in again starts a new stream.
        if (refused === 401 || refused === 403) return;
        if (refused !== undefined) waitMs = 15_000;
        // Ended by the server (a freeze): try again, at a pace that costs nothing while it lasts.
        if (this.closedByServer) waitMs = 5_000;
      } catch {
        // Dropped: resume from the last id.
      }
      if (this.abort.signal.aborted) return;
      this.setState("reconnecting");
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  /** Reads the stream until it ends; the status when the server refused it. */
  private async readOnce(): Promise<number | undefined> {
    const res = await fetch("/v1/events", {
      headers: {
        "x-api-key": this.key,
        accept: "text/event-stream",
        ...(this.lastId !== undefined ? { "last-event-id": String(this.lastId) } : {}),
      },
      credentials: "omit",
      cache: "no-store",
      signal: this.abort.signal,
    });
    if (!res.ok || res.body === null) {
      const body = (await res.json().catch(() => ({}))) as { detail?: unknown; rule?: unknown };
      // A key without `read` (a trade-only key) has no stream: said once, in the header.
      this.setState(
        body.rule === "scope" && typeof body.detail === "string"
          ? `off (${body.detail})`
          : `refused (${res.status})`,
      );
      return res.status;
    }
    // Without a cursor the stream starts at the next event; older ones are on the pages.
    this.setState("live");
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        this.dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  private dispatch(message: string): void {
    let event = "message";
    let data = "";
    for (const line of message.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    if (event === "closed") {
      this.closedByServer = true;
      this.setState("closed by the server");
    }
    if (event !== "message" || data === "") return;
    const parsed = JSON.parse(data) as ApiEvent;
    this.lastId = parsed.id;
    for (const fn of this.listeners) fn(parsed);
  }
}
