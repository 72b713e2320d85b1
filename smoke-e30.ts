import { buildTestApp } from "./test/helpers/app.js";
const t = await buildTestApp();
await t.app.ready();
const doc = t.app.swagger() as any;
const keys = Object.entries(doc.paths).flatMap(([p, ops]: any) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
const i = keys.indexOf("DELETE /v1/wallets/{public_key}");
console.log(keys.slice(i, i + 3));
console.log(JSON.stringify(doc.paths["/v1/wallets/{public_key}/balances"] ?? {}).slice(0, 1500));
await t.app.close();
