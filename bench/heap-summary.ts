/**
 * `npx tsx bench/heap-summary.ts <file.heapsnapshot> [--top 25] [--path 0]`: what holds a service's heap. Reads a
 * V8 heap snapshot (e.g. written by `bench/profile-trade.ts --heap-snapshot DIR`), computes retained sizes from
 * the dominator tree (weak edges ignored, as DevTools does) and prints, in MB: self size by constructor, retained
 * size by constructor (objects not dominated by another object of the same constructor, so nested ones are not
 * counted twice) and the largest single retainers with a path from the GC roots (DevTools' "Summary" and
 * "Retainers" in text form, so two runs can be compared in a terminal).
 */
import { readFileSync } from "node:fs";
import { numberFlag, optionalFlag } from "./flags.js";

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; edge_fields: string[]; node_types: [string[]]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Node and edge arrays of a snapshot with the derived indexes the summaries need. */
interface Graph {
  count: number;
  name: (n: number) => string;
  self: Float64Array;
  firstEdge: Uint32Array;
  edgeTo: Uint32Array;
  edgeStrong: Uint8Array;
  edgeLabel: (e: number) => string;
}

function load(file: string): Graph {
  const s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const count = s.nodes.length / N;
  const [iType, iName, iSelf, iEdges] = ["type", "name", "self_size", "edge_count"].map((f) => nf.indexOf(f));
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => ef.indexOf(f));
  const self = new Float64Array(count);
  const firstEdge = new Uint32Array(count + 1);
  let edgeIndex = 0;
  for (let n = 0; n < count; n++) {
    self[n] = s.nodes[n * N + iSelf!]!;
    firstEdge[n] = edgeIndex;
    edgeIndex += s.nodes[n * N + iEdges!]!;
  }
  firstEdge[count] = edgeIndex;
  const edgeTo = new Uint32Array(edgeIndex);
  const edgeStrong = new Uint8Array(edgeIndex);
  for (let e = 0; e < edgeIndex; e++) {
    edgeTo[e] = s.edges[e * E + eTo!]! / N;
    edgeStrong[e] = edgeTypes[s.edges[e * E + eType!]!] === "weak" ? 0 : 1;
  }
  const name = (n: number): string => {
    const type = nodeTypes[s.nodes[n * N + iType!]!]!;
    const nm = s.strings[s.nodes[n * N + iName!]!]!;
    if (type === "object" || type === "native") return nm;
    if (type === "closure") return `${nm || "(anonymous)"}()`;
    return `(${type})`;
  };
  const edgeLabel = (e: number): string => {
    const type = edgeTypes[s.edges[e * E + eType!]!];
    const v = s.edges[e * E + eName!]!;
    return type === "element" || type === "hidden" ? `[${v}]` : String(s.strings[v]);
  };
  return { count, name, self, firstEdge, edgeTo, edgeStrong, edgeLabel };
}

/** Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm over the reverse postorder from node 0). */
function dominators(g: Graph): { idom: Int32Array; order: Uint32Array } {
  const post = new Int32Array(g.count).fill(-1);
  const order = new Uint32Array(g.count); // nodes in postorder
  let k = 0;
  const stack: number[] = [0];
  const cursor = new Uint32Array(g.count);
  const seen = new Uint8Array(g.count);
  seen[0] = 1;
  while (stack.length > 0) {
    const n = stack[stack.length - 1]!;
    let e = g.firstEdge[n]! + cursor[n]!;
    while (e < g.firstEdge[n + 1]! && (!g.edgeStrong[e] || seen[g.edgeTo[e]!])) e++;
    cursor[n] = e - g.firstEdge[n]! + 1;
    if (e < g.firstEdge[n + 1]!) {
      const to = g.edgeTo[e]!;
      seen[to] = 1;
      stack.push(to);
    } else {
      stack.pop();
      post[n] = k;
      order[k++] = n;
    }
  }
  // Predecessors by strong edges, among reachable nodes.
  const predCount = new Uint32Array(g.count + 1);
  for (let n = 0; n < g.count; n++)
    if (seen[n])
      for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++)
        if (g.edgeStrong[e]) predCount[g.edgeTo[e]! + 1]!++;
  for (let n = 0; n < g.count; n++) predCount[n + 1]! += predCount[n]!;
  const preds = new Uint32Array(predCount[g.count]!);
  const fill = predCount.slice();
  for (let n = 0; n < g.count; n++)
    if (seen[n])
      for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++)
        if (g.edgeStrong[e]) preds[fill[g.edgeTo[e]!]!++] = n;
  const idom = new Int32Array(g.count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (post[a]! < post[b]!) a = idom[a]!;
      while (post[b]! < post[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = k - 2; i >= 0; i--) {
      const n = order[i]!;
      let d = -1;
      for (let p = predCount[n]!; p < predCount[n + 1]!; p++) {
        const q = preds[p]!;
        if (idom[q] === -1) continue;
        d = d === -1 ? q : intersect(q, d);
      }
      if (d !== -1 && idom[n] !== d) {
        idom[n] = d;
        changed = true;
      }
    }
  }
  return { idom, order: order.subarray(0, k) };
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(2);

function main(): void {
  const argv = process.argv.slice(2);
  const file = argv[0];
  if (file === undefined) throw new Error("usage: heap-summary.ts <file.heapsnapshot> [--top N]");
  const top = numberFlag(argv, "top", 25);
  const g = load(file);
  const { idom, order } = dominators(g);
  const retained = Float64Array.from(g.self);
  for (const n of order) if (n !== 0 && idom[n]! >= 0) retained[idom[n]!]! += retained[n]!;
  const names = new Array<string>(g.count);
  for (let n = 0; n < g.count; n++) names[n] = g.name(n);
  const selfBy = new Map<string, number>();
  const retainedBy = new Map<string, [number, number]>();
  for (const n of order) {
    selfBy.set(names[n]!, (selfBy.get(names[n]!) ?? 0) + g.self[n]!);
    // Counted only when no dominator of n has the same constructor.
    let d = idom[n]!;
    while (d !== 0 && names[d] !== names[n]) d = idom[d]!;
    if (d !== 0 || n === 0) continue;
    const row = retainedBy.get(names[n]!) ?? [0, 0];
    retainedBy.set(names[n]!, [row[0] + retained[n]!, row[1] + 1]);
  }
  const total = retained[0]!;
  process.stdout.write(`${file}: ${g.count} nodes, ${mb(total)} MB reachable\n\n`);
  process.stdout.write("| retained by constructor | objects | MB |\n|---|---:|---:|\n");
  for (const [k, [v, c]] of [...retainedBy].sort((a, b) => b[1][0] - a[1][0]).slice(0, top))
    process.stdout.write(`| \`${k.slice(0, 60)}\` | ${c} | ${mb(v)} |\n`);
  process.stdout.write("\n| self size by constructor | MB |\n|---|---:|\n");
  for (const [k, v] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`| \`${k.slice(0, 60)}\` | ${mb(v)} |\n`);
  // --show NAME: the largest objects of one constructor, each with its shortest retaining path from the roots.
  const show = optionalFlag(argv, "show");
  if (show !== undefined) {
    const via = new Int32Array(g.count).fill(-1); // edge index that first reached the node (BFS)
    const queue = new Uint32Array(g.count);
    const reached = new Uint8Array(g.count);
    reached[0] = 1;
    for (let head = 0, tail = 1; head < tail; head++) {
      const n = queue[head]!;
      for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) {
        const to = g.edgeTo[e]!;
        if (!g.edgeStrong[e] || reached[to]) continue;
        reached[to] = 1;
        via[to] = e;
        queue[tail++] = to;
      }
    }
    const from = new Uint32Array(g.edgeTo.length);
    for (let n = 0; n < g.count; n++) for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) from[e] = n;
    const of = order.filter((n) => names[n] === show).sort((a, b) => retained[b]! - retained[a]!);
    process.stdout.write(`\n| largest \`${show}\` (shortest path from the roots) | MB |\n|---|---:|\n`);
    for (const n of of.slice(0, top)) {
      const path: string[] = [];
      for (let m = n, i = 0; via[m]! >= 0 && i < 12; m = from[via[m]!]!, i++)
        path.unshift(`${names[from[via[m]!]!]}.${g.edgeLabel(via[m]!)}`);
      process.stdout.write(`| ${path.join(" → ").slice(-300)} | ${mb(retained[n]!)} |\n`);
    }
    return;
  }
  // Largest single objects by retained size below the synthetic roots, with a path up the dominator tree.
  const parentEdge = new Map<number, string>();
  for (let n = 0; n < g.count; n++)
    for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++)
      if (idom[g.edgeTo[e]!] === n && !parentEdge.has(g.edgeTo[e]!))
        parentEdge.set(g.edgeTo[e]!, g.edgeLabel(e));
  const candidates = [...order].filter((n) => !names[n]!.startsWith("(") && retained[n]! > 2 ** 18);
  candidates.sort((a, b) => retained[b]! - retained[a]!);
  process.stdout.write("\n| largest retainers (dominator path, outermost first) | MB |\n|---|---:|\n");
  const shown = new Set<number>();
  for (const n of candidates) {
    if (shown.size >= top) break;
    // Skip a node whose dominator chain already holds a shown node with nearly the same size.
    let d = idom[n]!;
    let covered = false;
    while (d !== 0) {
      if (shown.has(d) && retained[d]! < retained[n]! * 1.1) covered = true;
      d = idom[d]!;
    }
    if (covered) continue;
    shown.add(n);
    const path: string[] = [];
    for (let m = n, i = 0; m !== 0 && i < 8; m = idom[m]!, i++)
      path.unshift(`${names[m]}${parentEdge.has(m) ? `.${parentEdge.get(m)}` : ""}`);
    process.stdout.write(`| ${path.join(" → ").slice(-220)} | ${mb(retained[n]!)} |\n`);
  }
}

main();
