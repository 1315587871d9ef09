import type { Readers } from "../assemble/raw-block.ts";
import { CometReader } from "./comet.ts";
import { EvmReader } from "./evm.ts";
import { RestReader } from "./rest.ts";

export interface NodeEndpoints {
  readonly cometRpc: string;
  readonly rest: string;
  readonly evmRpc: string;
  readonly prefix: string;
}

export const makeReaders = (e: NodeEndpoints): Readers & { close(): void } => {
  const comet = new CometReader(e.cometRpc);
  const evm = new EvmReader(e.evmRpc);
  return {
    comet,
    rest: new RestReader(e.rest),
    evm,
    prefix: e.prefix,
    close: () => {
      comet.disconnect();
      evm.destroy();
    },
  };
};
