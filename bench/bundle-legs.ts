/**
 * How many buyer legs fit one create transaction (1,232 bytes) with the legacy curve buy and with v3:
 * [compute limit, compute price, create_v2, the creator's ATA + buy, N × (buyer ATA + buy), relay tip], a
 * v0 message over the service's lookup table (src/launch/lookup-table.ts), one signature per buyer. Sizes
 * only: nothing is sent, so the programs' generation does not matter here. `npm run bench:bundle-legs`.
 */
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { startLocalnet } from "../localnet/index.js";
import { createRpcClient } from "../src/chain/rpc-client.js";
import { buildCreateV2 } from "../src/launch/create-instructions.js";
import { staticLookupAddresses } from "../src/launch/lookup-table.js";
import { LAUNCH_GLOBAL, SWAP_GLOBAL_CONFIG, TOKEN_2022_ID } from "../src/launch/programs.js";
import { decodeLaunchGlobal, decodeSwapGlobalConfig, type LaunchGlobal } from "../src/launch/state.js";
import { buildCurveBuyExactSolIn } from "../src/launch/trade-instructions.js";
import { buildCurveBuyExactQuoteInV3 } from "../src/launch/v3-instructions.js";

const PACKET = 1_232;
// "v3-shared-quote": v3 with associated_quote_user set to the curve's WSOL account, which the IDL says the
// program ignores on SOL-paired coins (TRADE_V3.md asks for the user's WSOL account: one more key per buyer).
type Style = "legacy" | "v3" | "v3-shared-quote";

async function buyOf(
  style: Style,
  global: LaunchGlobal,
  creator: PublicKey,
  mint: PublicKey,
  user: PublicKey,
) {
  // One fee and buyback recipient for the whole transaction (a random pick per buyer would add keys).
  const common = {
    global,
    mint,
    user,
    tokenProgram: TOKEN_2022_ID,
    minTokensOut: 1n,
    createAta: true,
    random: () => 0,
  };
  if (style === "legacy")
    return buildCurveBuyExactSolIn({
      ...common,
      curve: { creator, isMayhemMode: false },
      spendableLamports: 100_000_000n,
    });
  const ixs = buildCurveBuyExactQuoteInV3({ ...common, spendable: 100_000_000n });
  if (style === "v3-shared-quote") {
    const buy = ixs[ixs.length - 1]!;
    buy.keys[10] = { ...buy.keys[10]!, pubkey: buy.keys[7]!.pubkey };
  }
  return ixs;
}

async function txSize(
  style: Style,
  global: LaunchGlobal,
  alt: AddressLookupTableAccount | null,
  buyers: number,
  tip: PublicKey,
  withCreate: boolean,
) {
  const creator = Keypair.generate().publicKey;
  const mint = Keypair.generate().publicKey;
  const ixs: TransactionInstruction[] = [
    ComputeBudgetProgram.setComputeUnitLimit({ units: 400_000 }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10_000n }),
  ];
  if (withCreate)
    ixs.push(
      await buildCreateV2({
        mint,
        name: "Benchmark coin",
        symbol: "BNCH",
        uri: "https://example.com/metadata/0123456789abcdef.json",
        creator,
        mayhem: false,
        cashback: false,
      }),
      ...(await buyOf(style, global, creator, mint, creator)),
    );
  for (let i = 0; i < buyers; i += 1)
    ixs.push(...(await buyOf(style, global, creator, mint, Keypair.generate().publicKey)));
  ixs.push(SystemProgram.transfer({ fromPubkey: creator, toPubkey: tip, lamports: 200_000n }));
  const message = new TransactionMessage({
    payerKey: creator,
    recentBlockhash: PublicKey.default.toBase58(),
    instructions: ixs,
  });
  const compiled = message.compileToV0Message(alt === null ? [] : [alt]);
  try {
    return new VersionedTransaction(compiled).serialize().length;
  } catch {
    // web3.js serializes into a packet-sized buffer: past it, count signatures + message instead.
    return 1 + 64 * compiled.header.numRequiredSignatures + messageLength(compiled);
  }
}

/** A v0 message's length, counted from its parts (what web3.js refuses to write past 1,232 bytes). */
function messageLength(m: ReturnType<TransactionMessage["compileToV0Message"]>): number {
  const compact = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);
  let n = 1 + 3 + compact(m.staticAccountKeys.length) + 32 * m.staticAccountKeys.length + 32;
  n += compact(m.compiledInstructions.length);
  for (const ix of m.compiledInstructions)
    n +=
      1 +
      compact(ix.accountKeyIndexes.length) +
      ix.accountKeyIndexes.length +
      compact(ix.data.length) +
      ix.data.length;
  n += compact(m.addressTableLookups.length);
  for (const l of m.addressTableLookups)
    n +=
      32 +
      compact(l.writableIndexes.length) +
      l.writableIndexes.length +
      compact(l.readonlyIndexes.length) +
      l.readonlyIndexes.length;
  return n;
}

async function main(): Promise<void> {
  const net = await startLocalnet({ port: 0, slotMs: 0 });
  try {
    const rpc = createRpcClient({ url: net.rpcUrl, timeoutMs: 5_000, readRetries: 0 });
    const [g, gc] = (await rpc.getMultipleAccounts([LAUNCH_GLOBAL, SWAP_GLOBAL_CONFIG])).value;
    if (!g || !gc) throw new Error("no launch configs on the localnet");
    const global = decodeLaunchGlobal(Buffer.from(g.data));
    const tip = new PublicKey(net.relayTipAccounts[0]!);
    const addresses = staticLookupAddresses({
      global,
      swapGlobalConfig: decodeSwapGlobalConfig(Buffer.from(gc.data)),
      tipAccounts: [tip],
    });
    const alt = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: {
        addresses,
        authority: undefined,
        deactivationSlot: 2n ** 64n - 1n,
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
      },
    });
    const cases = [
      { label: "create + dev buy + N buyers, with the lookup table", table: alt, withCreate: true },
      { label: "N buyers only, with the lookup table", table: alt, withCreate: false },
      { label: "N buyers only, no lookup table", table: null, withCreate: false },
    ];
    for (const c of cases) {
      console.log(c.label);
      for (const style of ["legacy", "v3", "v3-shared-quote"] as const) {
        const sizes: number[] = [];
        for (let n = 0; n <= 8; n += 1)
          sizes.push(await txSize(style, global, c.table, n, tip, c.withCreate));
        const fit = sizes.filter((s) => s <= PACKET).length - 1;
        console.log(
          `  ${style.padEnd(16)} bytes for 0..8 buyers ${sizes.join(", ")}; buyers that fit: ${fit}; per buyer ${sizes[2]! - sizes[1]!} bytes`,
        );
      }
    }
  } finally {
    await net.close();
  }
}

await main();
