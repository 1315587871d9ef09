import {
  Comet1Client,
  Comet38Client,
  type CometClient,
  HttpClient,
  type RpcClient,
  Tendermint37Client,
} from "@cosmjs/tendermint-rpc";

type Request = Parameters<RpcClient["execute"]>[0];

/** undici's and Node's codes for a connection the other side closed while the request went out. */
const CLOSED = new Set(["UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNRESET", "EPIPE"]);

const ATTEMPTS = 3;

const closedUnder = (e: unknown): boolean => {
  const code = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === "string" && CLOSED.has(code);
};

/**
 * CometBFT JSON-RPC over HTTP that sends a request again (twice at most) when the node closed the
 * kept-alive connection under it, as a busy node sometimes does: a query is only a read. A
 * broadcast is never sent twice (the node may have taken the first), so its error is the caller's.
 */
export class RetryingHttpClient implements RpcClient {
  private readonly http: HttpClient;

  constructor(url: string) {
    this.http = new HttpClient(url);
  }

  readonly execute = async (request: Request) => {
    const once = request.method.startsWith("broadcast_");
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.http.execute(request);
      } catch (e) {
        if (once || attempt >= ATTEMPTS || !closedUnder(e)) throw e;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  };

  readonly disconnect = () => this.http.disconnect();
}

/** cosmjs's `connectComet` (the client for the node's CometBFT version) over `RetryingHttpClient`. */
export const connectCometRetrying = async (url: string): Promise<CometClient> => {
  const rpc = new RetryingHttpClient(url);
  const version = (await Tendermint37Client.create(rpc).status()).nodeInfo.version;
  if (version.startsWith("0.38.")) return Comet38Client.create(rpc);
  if (version.startsWith("1.")) return Comet1Client.create(rpc);
  return Tendermint37Client.create(rpc);
};
