/** One object seen through another: a few members replaced or added, every other one reached unchanged. */

/**
 * `base` with `overrides` in front. Object.create keeps every other member of `base` (own or inherited)
 * reachable unchanged, where a spread would copy only its own enumerable ones.
 */
// `{}` as the default: no added members unless the caller names them.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function overlay<B extends object, E extends object = {}>(base: B, overrides: Partial<B> & E): B & E {
  return Object.assign(Object.create(base) as B, overrides);
}
