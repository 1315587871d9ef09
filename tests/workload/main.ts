import { chainStart, endpoints, nodePorts } from "@explorer/infra";
import { runDense } from "./dense.ts";

/**
 * `npm run workload [-- blocks [minTxs [senders]]]`: starts the reference chain if it is not
 * running and fills it with a dense run (tests/workload/dense.ts); prints its record.
 */
const [blocks, minTxs, senders] = process.argv.slice(2).map(Number);
await chainStart();
const e = endpoints(nodePorts(0));
const r = await runDense({ cometRpc: e.cometRpc, evmRpc: e.evmRpc, blocks, minTxs, senders });
console.log(JSON.stringify(r, null, 2));
process.exit(0);
