/**
 * What the submission relay received: every decodable sendTransaction, by signature, with how often it
 * came and whether the relay accepted it. Soak tests compare it with the service's execution history
 * ("every signature that reached the relay is recorded", "no signature sent twice").
 */

/** One signature the relay received. */
export interface RelayLogEntry {
  signature: string;
  /** How many sendTransaction calls carried it (rebroadcasts included). */
  sends: number;
  /** Whether at least one of those calls was answered with the signature (not an error). */
  accepted: boolean;
}

/** In-memory log, in the order signatures first arrived. */
export class RelayLog {
  private entries = new Map<string, RelayLogEntry>();

  /** Records one send of `signature`. */
  record(signature: string, accepted: boolean): void {
    const e = this.entries.get(signature);
    if (e === undefined) this.entries.set(signature, { signature, sends: 1, accepted });
    else {
      e.sends += 1;
      e.accepted ||= accepted;
    }
  }

  list(): RelayLogEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  reset(): void {
    this.entries = new Map();
  }
}
