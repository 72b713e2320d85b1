import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import {
  LAUNCH_EVENT_AUTHORITY,
  LAUNCH_FEE_CONFIG,
  LAUNCH_GLOBAL,
  LAUNCH_GLOBAL_VOLUME_ACCUMULATOR,
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_CONFIG,
  SWAP_GLOBAL_VOLUME_ACCUMULATOR,
  associatedTokenAddress,
  bondingCurveAddress,
  canonicalPoolAddress,
  creatorVaultAddress,
  isTokenProgram,
  launchUserVolumeAccumulator,
  poolAuthorityAddress,
  poolVaultAddresses,
  swapCashbackWsolAccount,
  swapCreatorVaultAuthority,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";

const pk = (s: string) => new PublicKey(s);
const find = (seeds: (Buffer | Uint8Array)[], program: PublicKey) =>
  PublicKey.findProgramAddressSync(seeds, program)[0];

describe("launch program addresses", () => {
  it("uses the real program ids", () => {
    expect(LAUNCH_PROGRAM_ID.toBase58()).toBe("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");
    expect(LAUNCH_SWAP_PROGRAM_ID.toBase58()).toBe("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA");
  });

  it("has the fixed PDAs of the reference (C.3)", () => {
    expect(LAUNCH_GLOBAL.toBase58()).toBe("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf");
    expect(LAUNCH_EVENT_AUTHORITY.toBase58()).toBe("Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1");
    expect(LAUNCH_GLOBAL_VOLUME_ACCUMULATOR.toBase58()).toBe("Hq2wp8uJ9jCPsYgNHex8RtqdvMPfVGoYwjvF1ATiwn2Y");
    expect(LAUNCH_FEE_CONFIG.toBase58()).toBe("8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt");
    expect(SWAP_GLOBAL_CONFIG.toBase58()).toBe("ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw");
    expect(SWAP_EVENT_AUTHORITY.toBase58()).toBe("GS4CU59F31iL7aR2Q8zVS8DRrcRnXX1yjQ66TqNVQnaR");
    expect(SWAP_GLOBAL_VOLUME_ACCUMULATOR.toBase58()).toBe("C2aFPdENg4A2HQsmrd5rTw5TaYBX5Ku887cWjbFKtZpw");
    expect(SWAP_FEE_CONFIG.toBase58()).toBe("5PHirr8joyTMp9JMm6nW7hNDVyEYdkzDqazxPD7RaTjx");
  });

  it("derives the documented canonical pool of a mainnet mint", () => {
    const mint = pk("7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump");
    expect(poolAuthorityAddress(mint).toBase58()).toBe("9XDYTfQKwW8sHPqnFdUreMmtmffmkHVPGTNV2e3LKxNW");
    const pool = canonicalPoolAddress(mint);
    expect(pool.toBase58()).toBe("GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J");
    const vaults = poolVaultAddresses(pool, mint, TOKEN_PROGRAM_ID);
    expect(vaults.base.toBase58()).toBe("5jMpkf4JF4noHftLgNKyPNh6roVfPSGSjuEk3U4eLKRa");
    expect(vaults.quote.toBase58()).toBe("43DVcZR4kQFjh4Xm2i3DcneRxNjZp7HMud8yDrJWrDr8");
  });

  it("derives per-mint and per-user PDAs with the documented seeds", () => {
    const mint = PublicKey.unique();
    const user = PublicKey.unique();
    expect(bondingCurveAddress(mint)).toEqual(
      find([Buffer.from("bonding-curve"), mint.toBuffer()], LAUNCH_PROGRAM_ID),
    );
    expect(creatorVaultAddress(user)).toEqual(
      find([Buffer.from("creator-vault"), user.toBuffer()], LAUNCH_PROGRAM_ID),
    );
    expect(launchUserVolumeAccumulator(user)).toEqual(
      find([Buffer.from("user_volume_accumulator"), user.toBuffer()], LAUNCH_PROGRAM_ID),
    );
    const swapUva = find([Buffer.from("user_volume_accumulator"), user.toBuffer()], LAUNCH_SWAP_PROGRAM_ID);
    expect(swapUserVolumeAccumulator(user)).toEqual(swapUva);
    expect(swapCashbackWsolAccount(user)).toEqual(
      associatedTokenAddress(swapUva, pk("So11111111111111111111111111111111111111112"), TOKEN_PROGRAM_ID),
    );
    expect(swapCreatorVaultAuthority(user)).toEqual(
      find([Buffer.from("creator_vault"), user.toBuffer()], LAUNCH_SWAP_PROGRAM_ID),
    );
    // The same owner and mint give different ATAs under the two token programs.
    expect(associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID)).not.toEqual(
      associatedTokenAddress(user, mint, TOKEN_PROGRAM_ID),
    );
  });

  it("recognises exactly the two token programs", () => {
    expect(isTokenProgram(TOKEN_PROGRAM_ID)).toBe(true);
    expect(isTokenProgram(TOKEN_2022_PROGRAM_ID)).toBe(true);
    expect(isTokenProgram(LAUNCH_PROGRAM_ID)).toBe(false);
  });
});
