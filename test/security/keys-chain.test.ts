/**
 * Issue 29 (key chains, the follow-up of findings 1 and 9), probed as an attacker would: a capped sub-key
 * holding `keys` mints keys to multiply its 24 h cap; a parent narrowed, frozen or revoked later leaves its
 * children their old powers. Each probe asserts the refusal and what moved on chain (localnet balances).
 */
import { describe, expect, it } from "vitest";
import { external } from "../helpers/e2e.js";
import { callWith, createSubKey, expectRefusal } from "../helpers/security.js";
import { useE2e } from "../helpers/use-e2e.js";

const e2e = useE2e();
const SOL = 1_000_000_000n;

/** A fresh funded account and a sub-key `parent` of its root key with `scopes` and `policy`. */
async function parentKey(scopes: string[], policy?: Record<string, unknown>) {
  const { apiKey: root, wallet } = await e2e.setup({ sol: 10n });
  const parent = await createSubKey(e2e.app, root, {
    name: "parent",
    scopes,
    ...(policy !== undefined ? { policy } : {}),
  });
  return { root, wallet, parent };
}

/** A key made by `creator` (a sub-key): its secret and id. */
async function childOf(creator: string, body: Record<string, unknown>) {
  const r = await callWith(e2e.app, creator, "POST", "/v1/keys", body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { apiKey: r.body.api_key as string, id: r.body.id as number, view: r.body };
}

/** A SOL transfer of `sol` from `wallet` to `to` with `key`. */
function send(key: string, wallet: string, to: string, sol: string) {
  return callWith(e2e.app, key, "POST", "/v1/sol/transfer/execute", {
    source_wallet: wallet,
    destination_wallet: to,
    amount: sol,
  });
}

describe("key chains: a sub-key's powers stay within its creator's over time (issue 29)", () => {
  it("3 children of a parent capped at 1 SOL/24h, spending at once, never pass the parent's cap", async () => {
    const { root, wallet, parent } = await parentKey(["keys", "transfer", "read"], { max_sol_per_24h: "1" });
    // Each child may hold the parent's whole cap: the caps would add up to 3 SOL without the chain.
    const kids = await Promise.all(
      [1, 2, 3].map((i) =>
        childOf(parent.apiKey, {
          name: `child-${i}`,
          scopes: ["transfer"],
          policy: { max_sol_per_24h: "1" },
        }),
      ),
    );
    for (const k of kids) expect(k.view.created_by).toBe(parent.id);
    const outs = kids.map(() => external());
    const before = await e2e.balance(wallet);
    const answers = await Promise.all(kids.map((k, i) => send(k.apiKey, wallet, outs[i]!, "0.4")));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok, JSON.stringify(answers.map((a) => a.body))).toHaveLength(2);
    expect(refused).toHaveLength(1);
    expectRefusal(refused[0]!, 403, "max_sol_per_24h", "third child");
    expect(refused[0]!.body.cap_key_id).toBe(parent.id);
    expect(refused[0]!.body.detail).toMatch(
      /^policy max_sol_per_24h: 0\.8\d* of 1 SOL used, this transfer needs 0\.4\d*$/,
    );
    // On chain: 0.8 SOL left in all (plus fees), whatever the children's own caps say.
    const received = (await Promise.all(outs.map((o) => e2e.balance(o)))).reduce((a, b) => a + b, 0n);
    expect(received).toBe((8n * SOL) / 10n);
    const spent = before - (await e2e.balance(wallet));
    expect(spent >= received && spent < received + SOL / 100n).toBe(true);
    // A fourth child, made now, starts from the parent's spent cap too.
    const late = await childOf(parent.apiKey, { name: "late", scopes: ["transfer"] });
    const more = await send(late.apiKey, wallet, external(), "0.3");
    expectRefusal(more, 403, "max_sol_per_24h", "late child");
    expect(more.body.cap_key_id).toBe(parent.id);
    // The parent's own spend counts against the same cap (its children's spends were charged to it).
    const own = await send(parent.apiKey, wallet, external(), "0.3");
    expectRefusal(own, 403, "max_sol_per_24h", "parent itself");
    expect(own.body.cap_key_id).toBe(parent.id);
    expect(received).toBe((8n * SOL) / 10n);
    const list = await callWith(e2e.app, root, "GET", "/v1/keys");
    const views = list.body.keys as { id: number; created_by: number | null; root: boolean }[];
    expect(views.find((v) => v.root)?.created_by).toBeNull();
    expect(views.find((v) => v.id === parent.id)?.created_by).toBe(views.find((v) => v.root)?.id);
  });

  it("narrowing the parent later narrows its children at once; nothing moves", async () => {
    const { root, wallet, parent } = await parentKey(["keys", "transfer", "read"]);
    const child = await childOf(parent.apiKey, { name: "child", scopes: ["keys", "transfer"] });
    const grandchild = await childOf(child.apiKey, { name: "grandchild", scopes: ["transfer"] });
    expect(grandchild.view.created_by).toBe(child.id);
    const allowed = external();
    const put = await callWith(e2e.app, root, "PUT", `/v1/keys/${parent.id}/policy`, {
      max_sol_per_execution: "0.1",
      destinations_allow: [allowed],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const before = await e2e.balance(wallet);
    for (const [label, k] of [
      ["child", child],
      ["grandchild", grandchild],
    ] as const) {
      const big = await send(k.apiKey, wallet, allowed, "0.5");
      expectRefusal(big, 403, "max_sol_per_execution", `${label} over the parent's new cap`);
      const elsewhere = external();
      const out = await send(k.apiKey, wallet, elsewhere, "0.05");
      expectRefusal(out, 403, "destinations_allow", `${label} to a destination the parent may not pay`);
      expect(await e2e.balance(elsewhere)).toBe(0n);
    }
    expect(await e2e.balance(wallet)).toBe(before);
    expect(await e2e.balance(allowed)).toBe(0n);
    // Inside the parent's new policy the grandchild still works.
    const small = await send(grandchild.apiKey, wallet, allowed, "0.05");
    expect(small.status, JSON.stringify(small.body)).toBe(200);
    expect(await e2e.balance(allowed)).toBe(SOL / 20n);
    // A child cannot hand on powers its parent lost: a new key gets the narrowed policy by default.
    const minted = await childOf(child.apiKey, { name: "minted", scopes: ["transfer"] });
    expect(minted.view.policy).toMatchObject({ max_sol_per_execution: "0.1", destinations_allow: [allowed] });
    // The narrowed parent still manages the keys it made (their powers narrowed with it).
    const freeze = await callWith(e2e.app, parent.apiKey, "POST", `/v1/keys/${grandchild.id}/freeze`);
    expect(freeze.status, JSON.stringify(freeze.body)).toBe(200);
    expectRefusal(await send(grandchild.apiKey, wallet, allowed, "0.05"), 403, "frozen", "frozen grandchild");
  });

  it("freezing the parent refuses its descendants (403 frozen); revoking it revokes them (401)", async () => {
    const { root, wallet, parent } = await parentKey(["keys", "transfer", "read"]);
    const child = await childOf(parent.apiKey, { name: "child", scopes: ["keys", "transfer", "read"] });
    const grandchild = await childOf(child.apiKey, { name: "grandchild", scopes: ["transfer"] });
    const sibling = await createSubKey(e2e.app, root, { name: "sibling", scopes: ["transfer"] });
    const to = external();
    const before = await e2e.balance(wallet);
    expect((await callWith(e2e.app, root, "POST", `/v1/keys/${parent.id}/freeze`)).status).toBe(200);
    for (const k of [child, grandchild]) {
      const r = await send(k.apiKey, wallet, to, "0.1");
      expectRefusal(r, 403, "frozen", "descendant of a frozen key");
      expect(r.body.detail).toBe(`API key is frozen (key ${parent.id}, above it, is frozen)`);
    }
    // The frozen parent's child cannot lift the freeze on its own grandchild's behalf either.
    const lift = await callWith(e2e.app, child.apiKey, "POST", `/v1/keys/${parent.id}/unfreeze`);
    expect(lift.status).toBe(403);
    expect(await e2e.balance(wallet)).toBe(before);
    expect((await callWith(e2e.app, root, "POST", `/v1/keys/${parent.id}/unfreeze`)).status).toBe(200);
    const works = await send(grandchild.apiKey, wallet, to, "0.1");
    expect(works.status, JSON.stringify(works.body)).toBe(200);
    expect(await e2e.balance(to)).toBe(SOL / 10n);
    const after = await e2e.balance(wallet);
    expect((await callWith(e2e.app, root, "DELETE", `/v1/keys/${parent.id}`)).status).toBe(200);
    for (const k of [child, grandchild]) {
      const r = await send(k.apiKey, wallet, to, "0.1");
      expect(r.status, JSON.stringify(r.body)).toBe(401);
      expect(r.body.detail).toBe("API key revoked");
    }
    const live = (await callWith(e2e.app, root, "GET", "/v1/keys")).body.keys as { id: number }[];
    expect(live.map((k) => k.id)).not.toContain(child.id);
    expect(live.map((k) => k.id)).not.toContain(grandchild.id);
    expect(live.map((k) => k.id)).toContain(sibling.id);
    expect(await e2e.balance(wallet)).toBe(after);
    expect(await e2e.balance(to)).toBe(SOL / 10n);
  });
});
