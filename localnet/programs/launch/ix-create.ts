/** create_v2 (reference A.6, D.4): Token-2022 mint with metadata, bonding curve, curve token account. */
import { createHash } from "node:crypto";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  ExtensionType,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from "@solana/spl-token";
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import type { InstructionAccount } from "../types.js";
import { acct, checkAccounts, idlInstruction } from "./account-checks.js";
import { CURVE_ACCOUNT_SIZE, LAUNCH_DECIMALS } from "./constants.js";
import { emitEvent } from "./events.js";
import { createProgramAccount, loadGlobal, type Exec } from "./exec-support.js";
import { programFail } from "./failures.js";
import { encodeCurve, type Curve } from "./layouts.js";

/** Decoded create_v2 arguments. */
export interface CreateV2Args {
  name: string;
  symbol: string;
  uri: string;
  creator: PublicKey;
  isMayhemMode: boolean;
  /** OptionBool / OptionU64 arguments as sent (absent = null). */
  isCashbackEnabled: boolean | null;
  creatorFeeBps: bigint | null;
  isHolderReward: boolean | null;
}

/** Program behaviour switches fixed at genesis. */
export interface CreateSwitches {
  /** Emulate the earlier program in which create_v2 could create cashback coins. */
  cashbackCreation: boolean;
}

// spl-token-metadata-interface "initialize" instruction (Token-2022 implements it for in-mint metadata).
const METADATA_INITIALIZE_DISC = createHash("sha256")
  .update("spl_token_metadata_interface:initialize_account")
  .digest()
  .subarray(0, 8);

function borshString(s: string): Buffer {
  const bytes = Buffer.from(s, "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(bytes.length);
  return Buffer.concat([len, bytes]);
}

function metadataInitializeIx(
  mint: PublicKey,
  authority: PublicKey,
  name: string,
  symbol: string,
  uri: string,
) {
  return new TransactionInstruction({
    programId: TOKEN_2022_PROGRAM_ID,
    keys: [
      { pubkey: mint, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([METADATA_INITIALIZE_DISC, borshString(name), borshString(symbol), borshString(uri)]),
  });
}

/** Bytes of the TokenMetadata value Token-2022 stores: update authority, mint, 3 strings, empty additional list. */
function metadataValueLen(name: string, symbol: string, uri: string): number {
  const str = (s: string) => 4 + Buffer.byteLength(s, "utf8");
  return 32 + 32 + str(name) + str(symbol) + str(uri) + 4;
}

/**
 * Length of a launch mint once Token-2022 has written its metadata, computed as Token-2022 does (a mint
 * that would be exactly the Multisig length is padded, so the account type can be told apart).
 */
export function createdMintLen(name: string, symbol: string, uri: string): number {
  return getMintLen([ExtensionType.MetadataPointer], {
    [ExtensionType.TokenMetadata]: metadataValueLen(name, symbol, uri),
  });
}

/** Executes create_v2. */
export function executeCreateV2(
  x: Exec,
  accounts: InstructionAccount[],
  args: CreateV2Args,
  sw: CreateSwitches,
): void {
  x.log("Program log: Instruction: CreateV2");
  const checked = checkAccounts(idlInstruction("create_v2"), accounts, x.programId, x.ledger, x.log);
  const a = (n: string) => acct(checked, n).pubkey;
  const global = loadGlobal(x, a("global"));
  if (!global.createV2Enabled) programFail(x.log, 6046);
  if (args.isCashbackEnabled === true) {
    if (!sw.cashbackCreation) programFail(x.log, 6082);
    if (!global.isCashbackEnabled) programFail(x.log, 6056);
  }
  if (args.isMayhemMode && !global.mayhemModeEnabled) programFail(x.log, 6048);
  if (args.creatorFeeBps !== null && args.creatorFeeBps > 0n) {
    if (!global.creatorFeeConfigurable) programFail(x.log, 6077);
    if (args.creatorFeeBps > global.maxConfigurableCreatorFeeBps) programFail(x.log, 6078);
  }
  if (args.isHolderReward === true && !global.isHolderRewardEnabled) programFail(x.log, 6084);
  if (Buffer.byteLength(args.name) > 32) programFail(x.log, 6043);
  if (Buffer.byteLength(args.symbol) > 13) programFail(x.log, 6044);
  if (Buffer.byteLength(args.uri) > 200) programFail(x.log, 6045);
  if (args.creator.equals(PublicKey.default)) programFail(x.log, 6030);
  // Non-SOL quotes (4 remaining accounts) are outside the localnet's scope.
  if (checked.remaining.length > 0) programFail(x.log, 6063, "only SOL-quoted curves are emulated");

  const mint = a("mint");
  const user = a("user");
  const mintAuthority = a("mint_authority");
  const curveKey = a("bonding_curve");
  const curveTokens = a("associated_bonding_curve");
  const mintLen = getMintLen([ExtensionType.MetadataPointer]);
  // Rent for the final size: the metadata initialize reallocs the mint to it (padding included).
  const lamports = x.ledger.rentExemptMinimum(createdMintLen(args.name, args.symbol, args.uri));

  // The mint, exactly as real Token-2022 builds it: pointer to itself, metadata in the mint account.
  x.ledger.invoke(
    SystemProgram.createAccount({
      fromPubkey: user,
      newAccountPubkey: mint,
      lamports: Number(lamports),
      space: mintLen,
      programId: TOKEN_2022_PROGRAM_ID,
    }),
  );
  x.ledger.invoke(
    createInitializeMetadataPointerInstruction(mint, mintAuthority, mint, TOKEN_2022_PROGRAM_ID),
  );
  x.ledger.invoke(
    createInitializeMint2Instruction(mint, LAUNCH_DECIMALS, mintAuthority, null, TOKEN_2022_PROGRAM_ID),
  );
  x.ledger.invoke(metadataInitializeIx(mint, mintAuthority, args.name, args.symbol, args.uri));

  const curve: Curve = {
    virtualTokenReserves: global.initialVirtualTokenReserves,
    virtualQuoteReserves: global.initialVirtualSolReserves,
    realTokenReserves: global.initialRealTokenReserves,
    realQuoteReserves: 0n,
    tokenTotalSupply: global.tokenTotalSupply,
    complete: false,
    creator: args.creator,
    isMayhemMode: args.isMayhemMode,
    isCashbackCoin: args.isCashbackEnabled === true,
    quoteMint: PublicKey.default,
    creatorFeeBps: args.creatorFeeBps ?? 0n,
    canEditCreatorFee: false,
    isHolderReward: false,
  };
  createProgramAccount(x, user, curveKey, encodeCurve(curve, new Uint8Array(CURVE_ACCOUNT_SIZE)));
  x.ledger.invoke(
    createAssociatedTokenAccountInstruction(
      user,
      curveTokens,
      curveKey,
      mint,
      TOKEN_2022_PROGRAM_ID,
      ASSOCIATED_TOKEN_PROGRAM_ID,
    ),
  );
  x.ledger.invoke(
    createMintToInstruction(
      mint,
      curveTokens,
      mintAuthority,
      global.tokenTotalSupply,
      [],
      TOKEN_2022_PROGRAM_ID,
    ),
  );
  // Launch coins show mint authority disabled: drop it once the fixed supply exists (documented choice).
  x.ledger.invoke(
    createSetAuthorityInstruction(
      mint,
      mintAuthority,
      AuthorityType.MintTokens,
      null,
      [],
      TOKEN_2022_PROGRAM_ID,
    ),
  );

  emitEvent(x.log, "CreateEvent", {
    name: args.name,
    symbol: args.symbol,
    uri: args.uri,
    mint,
    bondingCurve: curveKey,
    user,
    creator: args.creator,
    timestamp: x.ledger.clock().unixTimestamp,
    virtualTokenReserves: curve.virtualTokenReserves,
    virtualSolReserves: curve.virtualQuoteReserves,
    realTokenReserves: curve.realTokenReserves,
    tokenTotalSupply: curve.tokenTotalSupply,
    tokenProgram: TOKEN_2022_PROGRAM_ID,
    isMayhemMode: curve.isMayhemMode,
    isCashbackEnabled: curve.isCashbackCoin,
    quoteMint: curve.quoteMint,
    virtualQuoteReserves: curve.virtualQuoteReserves,
    creatorFeeBps: curve.creatorFeeBps,
    isHolderReward: false,
  });
}
