import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDir } from "@explorer/infra";
import { compileAll } from "./compile.ts";
import { close, connect, type ScenarioConfig, type Sent } from "./context.ts";
import { authz } from "./steps/authz.ts";
import { bank } from "./steps/bank.ts";
import { distribution } from "./steps/distribution.ts";
import { evmBasics } from "./steps/evm.ts";
import { feegrant } from "./steps/feegrant.ts";
import { gov } from "./steps/gov.ts";
import { slashing } from "./steps/slashing.ts";
import { staking } from "./steps/staking.ts";
import { tokens } from "./steps/tokens.ts";

export interface ScenarioResult {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly fromHeight: number;
  readonly toHeight: number;
  readonly sent: readonly Sent[];
  readonly contracts: Record<string, string>;
  readonly proposalId: string;
}

export const resultFile = (): string => join(runDir(), "scenario", "latest.json");

/**
 * Drives the chain through every message type and token standard. The Cosmos side (signers
 * alice, bob, carol, dave, val0, val1) and the EVM side (signers erin, frank, grace) run side by
 * side; each is sequential. Safe to run again against the same chain.
 */
export const runScenario = async (
  cfg: ScenarioConfig,
  log: (m: string) => void = console.log,
): Promise<ScenarioResult> => {
  const ctx = await connect(cfg, log);
  const startedAt = new Date().toISOString();
  const fromHeight = await ctx.cosmos.stargate.getHeight();
  try {
    const cosmosSide = async () => {
      await bank(ctx);
      await staking(ctx);
      await authz(ctx);
      await distribution(ctx);
      const proposalId = await gov(ctx);
      await feegrant(ctx);
      await slashing(ctx);
      return proposalId;
    };
    const evmSide = async () => {
      const artifacts = compileAll();
      return { ...(await evmBasics(ctx, artifacts)), ...(await tokens(ctx, artifacts)) };
    };
    const [proposalId, contracts] = await Promise.all([cosmosSide(), evmSide()]);
    const result: ScenarioResult = {
      startedAt,
      finishedAt: new Date().toISOString(),
      fromHeight,
      toHeight: await ctx.cosmos.stargate.getHeight(),
      sent: [...ctx.sent].sort((a, b) => a.height - b.height),
      contracts,
      proposalId: String(proposalId),
    };
    mkdirSync(join(runDir(), "scenario"), { recursive: true });
    writeFileSync(resultFile(), JSON.stringify(result, null, 2));
    return result;
  } finally {
    close(ctx);
  }
};
