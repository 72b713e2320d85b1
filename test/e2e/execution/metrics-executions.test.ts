/** Execution outcomes reach /metrics through the real app, chain and localnet (a SOL transfer end to end). */
import { describe, expect, it } from "vitest";
import { external } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

/** The value of one sample line of the /metrics text (0 when absent). */
function sample(text: string, line: string): number {
  const hit = text.split("\n").find((l) => l.startsWith(`${line} `));
  return hit === undefined ? 0 : Number(hit.slice(line.length + 1));
}

describe("execution metrics", () => {
  it("counts each confirmed transfer once by kind and outcome; a refused request counts nothing", async () => {
    const { apiKey, wallet } = await e2e.setup({ sol: 3n });
    const metrics = async (): Promise<string> =>
      (await e2e.app.inject({ method: "GET", url: "/metrics" })).body;
    const confirmed = 'lasertrade_executions_total{kind="transfer",outcome="confirmed"}';
    const before = sample(await metrics(), confirmed);
    for (const amount of ["0.1", "0.2"]) {
      const res = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
        destination_wallet: external(),
        amount,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ confirmed: boolean }>().confirmed).toBe(true);
    }
    const refused = await e2e.post(apiKey, "/v1/sol/transfer/execute", {
      destination_wallet: external(),
      amount: "1000",
    });
    expect(refused.statusCode).toBe(400);
    const text = await metrics();
    expect(sample(text, confirmed) - before).toBe(2);
    expect(text).not.toMatch(/lasertrade_executions_total\{kind="transfer",outcome="failed"\} [1-9]/);
    expect(text).toMatch(/route="\/v1\/sol\/transfer\/execute",status_code="200"\} 2/);
    expect(text).not.toContain(wallet);
  });
});
