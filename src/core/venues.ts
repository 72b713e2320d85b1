/**
 * The venues a launch token trades on: its bonding curve and, once the curve completes, its launchswap pool.
 * The one list of members: a new venue is a new constant and an entry here (docs/architecture.md, "a new venue");
 * everything that names a venue (types, document enums, policy texts, comparisons) reads it from this file.
 */

/** The launch program's bonding curve. */
export const BONDING_CURVE = "bonding_curve";
/** The launchswap AMM pool a completed curve migrates to. */
export const LAUNCHSWAP = "launchswap";

export const VENUES = [BONDING_CURVE, LAUNCHSWAP] as const;
export type Venue = (typeof VENUES)[number];
