/**
 * Outside wallets' creates and bundles on the sandbox (issue 32): keypairs held only by this test build a token
 * creation (POST /v1/laser/create/build: the service's fresh mint already signed) and a create-led bundle and an
 * existing-token bundle (POST /v1/laser/bundle/build: one unsigned transaction per leg, the tip on the first),
 * sign them locally and send them (POST /v1/transactions/send). The chain's balances move, one execution is
 * recorded per create or bundle, and the fills open each outside wallet's position in the ledger.
 */
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signBuilt } from "../../helpers/sign-built.js";
import { startE2eWithLookupTable, type E2e } from "../../helpers/e2e.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";

const URI = "https://example.com/metadata/outside-create-0123456789abcdef.json";

const schema = freshSchemaName("e2eoutcb");
type Db = { databaseUrl?: string; pgSchema?: string };
const engines: [string, Db][] = [["sqlite", {}]];
if (TEST_DATABASE_URL !== undefined)
  engines.push(["postgres", { databaseUrl: TEST_DATABASE_URL, pgSchema: schema }]);

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

let e2e: E2e;

interface BuiltLeg {
  index: number;
  type: string;
  wallet: string;
  transaction: string;
  expected_output: string | null;
  tip_lamports: string;
}

interface Position {
  tokens_held: string;
  spent_lamports: string;
  trade_count: number;
  last_execution_id: string;
}

/** A funded keypair the service never sees. */
function outsideWallet(lamports = 2_000_000_000n): Keypair {
  const k = Keypair.generate();
  e2e.localnet.admin.fund(k.publicKey.toBase58(), lamports);
  return k;
}

async function position(apiKey: string, wallet: string, mint: string): Promise<Position> {
  const res = await e2e.get(apiKey, `/v1/positions/${wallet}/${mint}?valuation=none`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Position>();
}

async function tipBalances(): Promise<bigint> {
  let sum = 0n;
  for (const a of e2e.localnet.bundleTipAccounts) sum += await e2e.balance(a);
  return sum;
}

describe.each(engines)("outside wallets' creates and bundles on %s", (_name, db) => {
  beforeAll(async () => {
    e2e = await startE2eWithLookupTable({ ...db });
  });
  afterAll(async () => {
    await e2e?.close();
  });
  beforeEach(() => {
    e2e.reset();
  });

  describe("creates", () => {
    it("builds a create signed by its mint only, sends it signed by the creator: token, record, position", async () => {
      const { apiKey } = await e2e.setup();
      const creator = outsideWallet();
      const owner = creator.publicKey.toBase58();
      const res = await e2e.post(apiKey, "/v1/laser/create/build", {
        public_key: owner,
        name: "Outside",
        symbol: "OUT",
        uri: URI,
        initial_buy: "0.1",
        slippage: 5,
      });
      expect(res.statusCode, res.body).toBe(200);
      const built = res.json<{
        transaction: string;
        mint: string;
        creator: string;
        initial_buy: { amount_lamports: string; expected_output: string };
      }>();
      expect(built).toMatchObject({ creator: owner, initial_buy: { amount_lamports: "100000000" } });
      expect(JSON.stringify(built)).not.toMatch(/secret|private/i);
      // The creator's slot is empty, the mint's is signed: only the outside wallet's signature is missing.
      const raw = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
      const keys = raw.message.staticAccountKeys.map((k) => k.toBase58());
      expect(keys[0]).toBe(owner);
      expect(raw.message.header.numRequiredSignatures).toBe(2);
      expect(keys[1]).toBe(built.mint);
      expect(raw.signatures[0]!.every((b) => b === 0)).toBe(true);
      expect(raw.signatures[1]!.some((b) => b !== 0)).toBe(true);

      const sol0 = await e2e.balance(owner);
      const sent = await e2e.post(apiKey, "/v1/transactions/send", {
        transaction: signBuilt(built.transaction, creator),
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const answer = sent.json<{ execution_id: string; kind: string; confirmed: boolean; mint: string }>();
      expect(answer).toMatchObject({ kind: "create", confirmed: true, mint: built.mint, wallet: owner });
      const tokens = await e2e.tokenBalance(owner, built.mint);
      expect(tokens).toBeGreaterThanOrEqual(BigInt(built.initial_buy.expected_output));
      const cost = sol0 - (await e2e.balance(owner));
      expect(cost).toBeGreaterThan(100_000_000n);

      const rec = await e2e.get(apiKey, `/v1/executions/${answer.execution_id}`);
      expect(rec.statusCode, rec.body).toBe(200);
      expect(rec.json()).toMatchObject({ kind: "create", status: "confirmed", wallet: owner });
      // The dev buy's fill opened the creator's position: the chain's numbers, to the lamport.
      const p = await position(apiKey, owner, built.mint);
      expect(BigInt(p.tokens_held)).toBe(tokens);
      expect(BigInt(p.spent_lamports)).toBe(cost);
      expect(p).toMatchObject({ trade_count: 1, last_execution_id: answer.execution_id });
    });

    it("a key with trade but not create builds a create and cannot send it; a build-only key builds it", async () => {
      const { apiKey } = await e2e.setup();
      const creator = outsideWallet();
      const body = { public_key: creator.publicKey.toBase58(), name: "Scoped", symbol: "SCP", uri: URI };
      const subKey = async (scopes: string[]): Promise<string> => {
        const res = await e2e.post(apiKey, "/v1/keys", {
          name: `outside-create-${scopes.join("-")}`,
          scopes,
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ api_key: string }>().api_key;
      };
      const builder = await subKey(["build"]);
      expect((await e2e.post(builder, "/v1/laser/create/build", body)).statusCode).toBe(200);
      const trader = await subKey(["trade"]);
      const built = await e2e.post(trader, "/v1/laser/create/build", body);
      expect(built.statusCode, built.body).toBe(200);
      const res = await e2e.post(trader, "/v1/transactions/send", {
        transaction: signBuilt(built.json<{ transaction: string }>().transaction, creator),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ rule: string }>().rule).toBe("scope");
      // Nothing was created: the mint never existed.
      expect(await e2e.balance(creator.publicKey.toBase58())).toBe(2_000_000_000n);
    });
  });

  describe("bundles", () => {
    it("a create-led bundle of two outside wallets: one transaction per leg, tip on the first, one bundle execution", async () => {
      const { apiKey } = await e2e.setup();
      const creator = outsideWallet();
      const buyer = outsideWallet();
      const [a, b] = [creator.publicKey.toBase58(), buyer.publicKey.toBase58()];
      const res = await e2e.post(apiKey, "/v1/laser/bundle/build", {
        public_key: a,
        accounts: [
          { type: "create", name: "Pair", symbol: "PAIR", uri: URI, initial_buy: "0.05" },
          { type: "buy", wallet: b, amount: "0.1", slippageBps: 500 },
        ],
        bundleTip: "0.0001",
      });
      expect(res.statusCode, res.body).toBe(200);
      const built = res.json<{ mint: string; legs: BuiltLeg[]; bundle_tip_lamports: string }>();
      expect(built.bundle_tip_lamports).toBe("100000");
      expect(built.legs.map((l) => [l.index, l.type, l.wallet, l.tip_lamports])).toEqual([
        [0, "create", a, "100000"],
        [1, "buy", b, "0"],
      ]);
      const legs = [
        signBuilt(built.legs[0]!.transaction, creator),
        signBuilt(built.legs[1]!.transaction, buyer),
      ];

      // Out of order, or only some legs: refused, and nothing is spent (the whole set still sends).
      let refused = await e2e.post(apiKey, "/v1/transactions/send", { transactions: [legs[1], legs[0]] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ detail: string }>().detail).toMatch(
        /^transactions must be every leg of one bundle/,
      );
      refused = await e2e.post(apiKey, "/v1/transactions/send", { transactions: [legs[0]] });
      expect(refused.statusCode).toBe(400);

      const tips0 = await tipBalances();
      const [a0, b0] = [await e2e.balance(a), await e2e.balance(b)];
      const sent = await e2e.post(apiKey, "/v1/transactions/send", { transactions: legs });
      expect(sent.statusCode, sent.body).toBe(200);
      const answer = sent.json<{
        execution_id: string;
        kind: string;
        bundle_id: string;
        results: { index: number; wallet: string; signature: string }[];
        confirmed: boolean;
        mint: string;
      }>();
      expect(answer).toMatchObject({ kind: "bundle", confirmed: true, mint: built.mint });
      expect(answer.bundle_id).toMatch(/^[0-9a-f]{64}$/);
      expect(answer.results.map((r) => r.wallet)).toEqual([a, b]);
      // The tip was paid once, by the first leg.
      expect((await tipBalances()) - tips0).toBe(100_000n);
      const tokensB = await e2e.tokenBalance(b, built.mint);
      expect(tokensB).toBeGreaterThanOrEqual(BigInt(built.legs[1]!.expected_output!));
      expect(await e2e.tokenBalance(a, built.mint)).toBeGreaterThanOrEqual(
        BigInt(built.legs[0]!.expected_output!),
      );

      const rec = await e2e.get(apiKey, `/v1/executions/${answer.execution_id}`);
      expect(rec.statusCode, rec.body).toBe(200);
      expect(rec.json()).toMatchObject({
        kind: "bundle",
        status: "confirmed",
        signatures: answer.results.map((r) => r.signature),
      });
      // Each leg's fill opened its own wallet's position: the chain's numbers, to the lamport.
      const pb = await position(apiKey, b, built.mint);
      expect(BigInt(pb.tokens_held)).toBe(tokensB);
      expect(BigInt(pb.spent_lamports)).toBe(b0 - (await e2e.balance(b)));
      const pa = await position(apiKey, a, built.mint);
      expect(BigInt(pa.tokens_held)).toBe(await e2e.tokenBalance(a, built.mint));
      expect(pa.last_execution_id).toBe(answer.execution_id);
      expect(a0).toBeGreaterThan(await e2e.balance(a));

      // Sent once: the same legs again find their builds taken.
      refused = await e2e.post(apiKey, "/v1/transactions/send", { transactions: legs });
      expect(refused.statusCode).toBe(400);
    });

    it("an existing-token bundle of one outside buy; a leg sent alone, a leg without wallet, a key without create", async () => {
      const { apiKey } = await e2e.setup();
      const { mint } = e2e.localnet.admin.createToken();
      const signer = outsideWallet();
      const owner = signer.publicKey.toBase58();
      const body = {
        mint,
        accounts: [{ type: "buy", wallet: owner, amount: "0.1" }],
        bundleTip: "0.00001",
      };
      const res = await e2e.post(apiKey, "/v1/laser/bundle/build", body);
      expect(res.statusCode, res.body).toBe(200);
      const built = res.json<{ legs: BuiltLeg[] }>();
      expect(built.legs).toHaveLength(1);
      const leg = signBuilt(built.legs[0]!.transaction, signer);

      // A key with trade but not create builds the bundle and may not send it (its build is left whole).
      const tradeOnly = await e2e.post(apiKey, "/v1/keys", {
        name: "outside-bundle-trade",
        scopes: ["trade"],
      });
      const trader = tradeOnly.json<{ api_key: string }>().api_key;
      const theirs = await e2e.post(trader, "/v1/laser/bundle/build", body);
      expect(theirs.statusCode, theirs.body).toBe(200);
      const scoped = await e2e.post(trader, "/v1/transactions/send", {
        transactions: [signBuilt(theirs.json<{ legs: BuiltLeg[] }>().legs[0]!.transaction, signer)],
      });
      expect(scoped.statusCode).toBe(403);
      expect(scoped.json<{ rule: string }>().rule).toBe("scope");

      const tips0 = await tipBalances();
      const sent = await e2e.post(apiKey, "/v1/transactions/send", { transactions: [leg] });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toMatchObject({ kind: "bundle", confirmed: true, mint, wallet: owner });
      expect((await tipBalances()) - tips0).toBe(10_000n);
      expect(await e2e.tokenBalance(owner, mint)).toBeGreaterThanOrEqual(
        BigInt(built.legs[0]!.expected_output!),
      );

      // A bundle leg is sent with its bundle, not as a single transaction.
      const again = await e2e.post(apiKey, "/v1/laser/bundle/build", body);
      expect(again.statusCode, again.body).toBe(200);
      const alone = await e2e.post(apiKey, "/v1/transactions/send", {
        transaction: signBuilt(again.json<{ legs: BuiltLeg[] }>().legs[0]!.transaction, signer),
      });
      expect(alone.statusCode).toBe(400);
      expect(alone.json<{ detail: string }>().detail).toBe(
        "a bundle leg is sent with all its legs in transactions, not alone",
      );
      // No wallet for a leg: the 400 names the leg.
      const noWallet = await e2e.post(apiKey, "/v1/laser/bundle/build", {
        mint,
        accounts: [{ type: "buy", amount: "0.1" }],
        bundleTip: "0.00001",
      });
      expect(noWallet.statusCode).toBe(400);
      expect(noWallet.json()).toMatchObject({ index: 0 });
    });
  });
});
