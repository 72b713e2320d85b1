/** What every page of a signed-in console shares: the API client and the one event stream. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Api } from "./api";
import type { EventFeed } from "./events";

export interface Session {
  api: Api;
  events: EventFeed;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session (pages render only inside one). */
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (s === null) throw new Error("no session");
  return s;
}
