/**
 * A warm account cache over a fake subscription layer and a fake background read, for unit tests of the
 * warm state: the test sets the chain's accounts, sends notifications and turns subscriptions off and on.
 */
import { PublicKey } from "@solana/web3.js";
import type { AccountInfo } from "../../src/chain/rpc-client.js";
import type { AccountUpdate, ChainSubscriptions } from "../../src/chain/subscriptions/index.js";
import { WarmAccounts } from "../../src/chain/warm-accounts.js";

/** The fake chain behind a WarmAccounts. */
export interface FakeWarmChain {
  accounts: WarmAccounts;
  /** What the background read answers, by address; `readSlot` is the read's slot. */
  chain: Map<string, AccountInfo>;
  readSlot: number;
  /** Sends an account notification at `slot`. */
  notify(address: string, account: AccountInfo, slot: number): void;
  /** Whether every subscription reports live. */
  setLive(live: boolean): void;
  /** The cached state of one address (through lookup), or null when lookup refuses it. */
  cached(address: string): { account: AccountInfo | null; slot: number } | null;
}

/** Builds the fake chain and its cache (freshness always within bounds: the connection just delivered). */
export function fakeWarmChain(onChange?: (a: string) => void): FakeWarmChain {
  const handlers = new Map<string, (u: AccountUpdate) => void>();
  let live = true;
  const subscriptions = {
    accountSubscribe(pubkey: string, handler: (u: AccountUpdate) => void) {
      handlers.set(pubkey, handler);
      return Object.assign(() => void handlers.delete(pubkey), {
        ready: Promise.resolve(),
        live: () => live,
      });
    },
    slotsSinceLastMessage: () => 0,
    lastSlot: () => 0,
  } as Partial<ChainSubscriptions> as ChainSubscriptions;
  const fake: FakeWarmChain = {
    chain: new Map(),
    readSlot: 10,
    accounts: new WarmAccounts({
      subscriptions,
      rpc: {
        getMultipleAccounts: async (keys: PublicKey[]) => ({
          slot: fake.readSlot,
          value: keys.map((k) => fake.chain.get(k.toBase58()) ?? null),
        }),
      },
      maxAgeSlots: 2,
      ...(onChange !== undefined ? { onChange: (a: string) => onChange(a) } : {}),
    }),
    notify(address, account, slot) {
      handlers.get(address)?.({ pubkey: address, slot, account, receivedAt: Date.now() });
    },
    setLive(on) {
      live = on;
    },
    cached(address) {
      const hit = fake.accounts.lookup([address]);
      return hit === null ? null : { account: hit.accounts[0] ?? null, slot: hit.slot };
    },
  };
  return fake;
}
