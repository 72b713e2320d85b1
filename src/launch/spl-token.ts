/**
 * The one copy of `@solana/spl-token` the service uses: its CommonJS build, the one the official SDKs `require`.
 * Importing the package from ESM loads its ESM build as well (with ESM copies of @solana/codecs, @solana/errors
 * and bignumber.js beside the CommonJS ones): about 2 MB more heap for the same constants and layouts (issue 18,
 * peak RSS). Types still come from the package itself (`import type`).
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** `@solana/spl-token`, loaded through require (the SDKs' copy). */
const splToken = require("@solana/spl-token") as typeof import("@solana/spl-token");

export const {
  ACCOUNT_SIZE,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  AccountLayout,
  MINT_SIZE,
  MintLayout,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  TokenInstruction,
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSyncNativeInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} = splToken;
