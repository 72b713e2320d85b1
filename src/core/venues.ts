/**
 * The venues a launch token trades on: its bonding curve and, once the curve completes, its launchswap pool.
 * The one list of members: a new venue is a new entry here (docs/architecture.md, "a new venue").
 */
export const VENUES = ["bonding_curve", "launchswap"] as const;
export type Venue = (typeof VENUES)[number];

/** The launch program's bonding curve. */
export const BONDING_CURVE: Venue = "bonding_curve";
/** The launchswap AMM pool a completed curve migrates to. */
export const LAUNCHSWAP: Venue = "launchswap";
