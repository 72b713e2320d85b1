/** Issue 23: the client's wallet paging rules (Link header parsing, following pages). */
import { describe, expect, it } from "vitest";
import { nextAfterFromLink } from "@lasertrade/client";

describe("nextAfterFromLink", () => {
  it("reads the after of the next link", () => {
    expect(nextAfterFromLink('</v1/wallets?limit=2&after=7>; rel="next"')).toBe(7);
    expect(nextAfterFromLink("</v1/wallets?after=12&limit=2>; rel=next")).toBe(12);
    expect(
      nextAfterFromLink(
        '</v1/wallets?limit=2&after=1>; rel="prev", </v1/wallets?limit=2&after=9>; rel="next"',
      ),
    ).toBe(9);
  });

  it("is null without a next link (the last page)", () => {
    expect(nextAfterFromLink(null)).toBeNull();
    expect(nextAfterFromLink('</v1/wallets?limit=2&after=1>; rel="prev"')).toBeNull();
    expect(nextAfterFromLink('</v1/wallets?limit=2>; rel="next"')).toBeNull();
  });
});
