/** A test reader of GET /v1/events: fetch + eventsource-parser (no hand-written SSE parsing). */
import { createParser, type EventSourceMessage } from "eventsource-parser";

/** An open stream: its messages and comments as they arrive. */
export interface SseReader {
  status: number;
  messages: EventSourceMessage[];
  comments: string[];
  /** Resolves once `n` messages arrived (rejects after `timeoutMs`). */
  waitForMessages(n: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  /** Resolves once `pred` holds for the comments. */
  waitForComment(pred: (c: string) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens `url` as an event stream with these headers. */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseReader> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = (): void => waiters.forEach((w) => w());
  const parser = createParser({
    onEvent: (m) => {
      messages.push(m);
      notify();
    },
    onComment: (c) => {
      comments.push(c);
      notify();
    },
  });
  if (res.body !== null && res.status === 200) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          parser.feed(decoder.decode(chunk, { stream: true }));
        }
      } catch {
        // aborted
      }
    })();
  }
  const until = (check: () => boolean, timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const test = (): void => {
        if (check()) {
          clearTimeout(timer);
          waiters.delete(test);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(test);
        reject(new Error("timed out waiting on the stream"));
      }, timeoutMs);
      waiters.add(test);
      test();
    });
  return {
    status: res.status,
    messages,
    comments,
    async waitForMessages(n, timeoutMs = 20_000) {
      await until(() => messages.length >= n, timeoutMs);
      return messages.slice(0, n);
    },
    async waitForComment(pred, timeoutMs = 20_000) {
      await until(() => comments.some(pred), timeoutMs);
    },
    close() {
      abort.abort();
    },
  };
}
