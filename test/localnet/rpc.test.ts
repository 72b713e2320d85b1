import { afterAll, beforeAll, describe, it, expect } from "vitest";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import {
  TOKEN_2022_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  getMinimumBalanceForRentExemptMint,
  MINT_SIZE,
} from "@solana/spl-token";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";

// The localnet refuses POSTs that are not application/json (issue 23: no cross-site admin calls).
const JSON_HEADERS = { "content-type": "application/json" };

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
  conn = new Connection(net.rpcUrl, "confirmed");
});
afterAll(async () => {
  await net.close();
});

async function rpc(method: string, params: unknown[], url = net.rpcUrl) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { result?: unknown; error?: { code: number; message: string } },
  };
}

async function airdropped(sol = 2): Promise<Keypair> {
  const k = Keypair.generate();
  const sig = await conn.requestAirdrop(k.publicKey, sol * LAMPORTS_PER_SOL);
  expect(typeof sig).toBe("string");
  return k;
}

async function send(tx: Transaction, ...signers: Keypair[]): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
  tx.recentBlockhash = blockhash;
  tx.lastValidBlockHeight = lastValidBlockHeight;
  tx.feePayer = signers[0]!.publicKey;
  tx.sign(...signers);
  return conn.sendRawTransaction(tx.serialize());
}

describe("JSON-RPC with @solana/web3.js Connection", () => {
  it("airdrops and transfers SOL; statuses move processed → confirmed → finalized", async () => {
    const a = await airdropped();
    expect(await conn.getBalance(a.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
    const b = Keypair.generate();
    const sig = await send(
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: a.publicKey,
          toPubkey: b.publicKey,
          lamports: 0.5 * LAMPORTS_PER_SOL,
        }),
      ),
      a,
    );
    let st = (await conn.getSignatureStatuses([sig])).value[0];
    expect(st?.confirmationStatus).toBe("processed");
    expect(st?.err).toBeNull();
    await fetch(`${net.adminUrl}/slots`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ n: 1 }),
    });
    st = (await conn.getSignatureStatuses([sig])).value[0];
    expect(st?.confirmationStatus).toBe("confirmed");
    expect(st?.confirmations).toBe(1);
    expect(await conn.getBalance(b.publicKey)).toBe(0.5 * LAMPORTS_PER_SOL);
    expect(await conn.getBalance(a.publicKey)).toBe(1.5 * LAMPORTS_PER_SOL - 5000);
    const tx = await conn.getTransaction(sig, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(tx?.meta?.fee).toBe(5000);
    expect(tx?.meta?.preBalances[0]).toBe(2 * LAMPORTS_PER_SOL);
    expect(tx?.meta?.postBalances[1]).toBe(0.5 * LAMPORTS_PER_SOL);
    expect(tx?.meta?.logMessages).toContain("Program 11111111111111111111111111111111 success");
    net.admin.advanceSlots(31);
    expect((await conn.getSignatureStatuses([sig])).value[0]?.confirmationStatus).toBe("finalized");
    expect((await conn.getSignatureStatuses([sig])).value[0]?.confirmations).toBeNull();
  });

  it("creates a Token-2022 mint and associated accounts and transfers tokens", async () => {
    const payer = await airdropped();
    const mint = Keypair.generate();
    const dest = Keypair.generate();
    const srcAta = getAssociatedTokenAddressSync(
      mint.publicKey,
      payer.publicKey,
      false,
      TOKEN_2022_PROGRAM_ID,
    );
    const dstAta = getAssociatedTokenAddressSync(
      mint.publicKey,
      dest.publicKey,
      false,
      TOKEN_2022_PROGRAM_ID,
    );
    const rent = await getMinimumBalanceForRentExemptMint(conn);
    const sig = await send(
      new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space: MINT_SIZE,
          lamports: rent,
          programId: TOKEN_2022_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
        createAssociatedTokenAccountIdempotentInstruction(
          payer.publicKey,
          srcAta,
          payer.publicKey,
          mint.publicKey,
          TOKEN_2022_PROGRAM_ID,
        ),
        createAssociatedTokenAccountIdempotentInstruction(
          payer.publicKey,
          dstAta,
          dest.publicKey,
          mint.publicKey,
          TOKEN_2022_PROGRAM_ID,
        ),
        createMintToInstruction(
          mint.publicKey,
          srcAta,
          payer.publicKey,
          5_000_000n,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
        createTransferCheckedInstruction(
          srcAta,
          mint.publicKey,
          dstAta,
          payer.publicKey,
          1_250_000n,
          6,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
      ),
      payer,
      mint,
    );
    expect((await conn.getSignatureStatuses([sig])).value[0]?.err).toBeNull();
    const bal = await conn.getTokenAccountBalance(dstAta);
    expect(bal.value).toMatchObject({ amount: "1250000", decimals: 6, uiAmountString: "1.25" });
    expect((await conn.getTokenAccountBalance(srcAta)).value.amount).toBe("3750000");
    const owned = await conn.getTokenAccountsByOwner(dest.publicKey, { mint: mint.publicKey });
    expect(owned.value.map((a) => a.pubkey.toBase58())).toEqual([dstAta.toBase58()]);
    const parsed = await conn.getParsedTokenAccountsByOwner(payer.publicKey, {
      programId: TOKEN_2022_PROGRAM_ID,
    });
    expect(parsed.value[0]?.account.data.parsed.info.tokenAmount.uiAmountString).toBe("3.75");
    const info = await conn.getAccountInfo(dstAta);
    expect(info?.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    net.admin.advanceSlots(1);
    const tx = await conn.getTransaction(sig, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(
      tx?.meta?.postTokenBalances?.find((b) => b.owner === dest.publicKey.toBase58())?.uiTokenAmount.amount,
    ).toBe("1250000");
  });

  it("simulates with sigVerify and replaceRecentBlockhash", async () => {
    const a = await airdropped();
    const msg = new TransactionMessage({
      payerKey: a.publicKey,
      recentBlockhash: "11111111111111111111111111111111",
      instructions: [
        SystemProgram.transfer({
          fromPubkey: a.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 1e6,
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(msg);
    const sim = await conn.simulateTransaction(tx, { replaceRecentBlockhash: true, sigVerify: false });
    expect(sim.value.err).toBeNull();
    expect(sim.value.logs?.length).toBeGreaterThan(0);
    const stale = await conn.simulateTransaction(tx, { sigVerify: false });
    expect(stale.value.err).toBe("BlockhashNotFound");
    const unsigned = await rpc("simulateTransaction", [
      Buffer.from(tx.serialize()).toString("base64"),
      { encoding: "base64", sigVerify: true },
    ]);
    expect(unsigned.body.error?.code).toBe(-32003);
  });

  it("rejects a missing signer, a bad signature and an expired blockhash with clear errors", async () => {
    const a = await airdropped();
    const other = await airdropped();
    const { blockhash } = await conn.getLatestBlockhash();
    const msg = new TransactionMessage({
      payerKey: a.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: a.publicKey, lamports: 1e6 }),
      ],
    }).compileToV0Message();
    const missing = new VersionedTransaction(msg);
    missing.sign([a]);
    const r1 = await rpc("sendTransaction", [
      Buffer.from(missing.serialize()).toString("base64"),
      { encoding: "base64" },
    ]);
    expect(r1.body.error?.code).toBe(-32003);
    expect(r1.body.error?.message).toMatch(/missing signature for signer/);

    const bad = new VersionedTransaction(msg);
    bad.sign([a, other]);
    bad.signatures[1]![5]! ^= 0xff;
    const r2 = await rpc("sendTransaction", [
      Buffer.from(bad.serialize()).toString("base64"),
      { encoding: "base64", skipPreflight: true },
    ]);
    expect(r2.body.error?.code).toBe(-32003);
    expect(r2.body.error?.message).toMatch(/invalid signature/);

    const good = new VersionedTransaction(msg);
    good.sign([a, other]);
    net.admin.advanceSlots(151);
    await expect(conn.sendRawTransaction(good.serialize())).rejects.toThrow(/Blockhash not found/);
    expect(await conn.isBlockhashValid(blockhash)).toMatchObject({ value: false });
  });

  it("preflight reports a failing transaction with -32002 and skipPreflight lands it with its fee", async () => {
    const a = await airdropped(1);
    const tx = () =>
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: a.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 5 * LAMPORTS_PER_SOL,
        }),
      );
    await expect(send(tx(), a)).rejects.toThrow(/custom program error: 0x1/);
    const { blockhash } = await conn.getLatestBlockhash();
    const t = tx();
    t.recentBlockhash = blockhash;
    t.feePayer = a.publicKey;
    t.sign(a);
    const sig = await conn.sendRawTransaction(t.serialize(), { skipPreflight: true });
    const st = (await conn.getSignatureStatuses([sig])).value[0];
    expect(st?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(await conn.getBalance(a.publicKey)).toBe(LAMPORTS_PER_SOL - 5000);
  });

  it("serves the read methods with official shapes", async () => {
    const slot = await conn.getSlot();
    expect(await conn.getBlockHeight()).toBe(slot);
    expect(await conn.getMinimumBalanceForRentExemption(0)).toBe(890880);
    const raw = await rpc("getAccountInfo", [net.relayTipAccounts[0], { encoding: "base64" }]);
    expect(raw.body.result).toMatchObject({
      value: { data: ["", "base64"], owner: "11111111111111111111111111111111", space: 0 },
    });
    const multi = await conn.getMultipleAccountsInfo([Keypair.generate().publicKey]);
    expect(multi).toEqual([null]);
    expect(Array.isArray(await conn.getRecentPrioritizationFees())).toBe(true);
    expect((await rpc("getHealth", [])).body.result).toBe("ok");
    expect((await conn.getVersion())["solana-core"]).toBeTypeOf("string");
    expect((await rpc("noSuchMethod", [])).body.error?.code).toBe(-32601);
  });
});

describe("getSignaturesForAddress", () => {
  it("lists an address's landed transactions newest first, honouring limit, before, until and the commitment", async () => {
    const k = Keypair.generate();
    const other = Keypair.generate();
    const sigs: string[] = [];
    for (let i = 0; i < 3; i++) sigs.push(await conn.requestAirdrop(k.publicKey, LAMPORTS_PER_SOL + i));
    const [s1, s2, s3] = sigs as [string, string, string];
    const list = async (cfg: Record<string, unknown>) => {
      const r = await rpc("getSignaturesForAddress", [k.publicKey.toBase58(), cfg]);
      return (r.body.result as { signature: string }[]).map((e) => e.signature);
    };
    // Processed only (slots do not advance here): nothing at confirmed yet.
    expect(await list({ commitment: "confirmed" })).toEqual([]);
    net.admin.advanceSlots(1);
    expect(await list({ commitment: "confirmed" })).toEqual([s3, s2, s1]);
    expect(await list({ commitment: "confirmed", limit: 2 })).toEqual([s3, s2]);
    expect(await list({ commitment: "confirmed", before: s3 })).toEqual([s2, s1]);
    expect(await list({ commitment: "confirmed", until: s1 })).toEqual([s3, s2]);
    expect(await list({ commitment: "confirmed", before: s3, until: s1 })).toEqual([s2]);
    // Default commitment finalized: 32 slots later.
    expect(await list({})).toEqual([]);
    net.admin.advanceSlots(32);
    expect(await list({})).toEqual([s3, s2, s1]);
    const entry = (await rpc("getSignaturesForAddress", [k.publicKey.toBase58(), { limit: 1 }])).body
      .result as Record<string, unknown>[];
    expect(entry[0]).toMatchObject({ signature: s3, err: null, memo: null, confirmationStatus: "finalized" });
    expect(entry[0]!.slot).toBeTypeOf("number");
    // web3.js reads it too.
    expect((await conn.getSignaturesForAddress(k.publicKey, { limit: 2 })).map((e) => e.signature)).toEqual([
      s3,
      s2,
    ]);
    expect(await rpc("getSignaturesForAddress", [other.publicKey.toBase58()])).toMatchObject({
      body: { result: [] },
    });
    expect(
      (await rpc("getSignaturesForAddress", [k.publicKey.toBase58(), { limit: 0 }])).body.error?.message,
    ).toBe("Invalid limit; max 1000");
    expect(
      (await rpc("getSignaturesForAddress", [k.publicKey.toBase58(), { commitment: "processed" }])).body.error
        ?.message,
    ).toBe("Method does not support commitment below `confirmed`");
  });
});
