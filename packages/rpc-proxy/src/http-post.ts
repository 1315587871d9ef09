import http from "node:http";
import https from "node:https";

/**
 * Why an upstream gave no answer. `sent` tells whether the request may have reached the node
 * (then only safe reads are retried elsewhere).
 */
export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly kind: "timeout" | "unreachable" | "bad-answer",
    readonly sent: boolean,
  ) {
    super(message);
  }
}

const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** One upstream's HTTP endpoint with keep-alive connections. */
export class HttpTarget {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly target: http.RequestOptions;

  constructor(url: string, maxSockets = 128) {
    this.url = new URL(url);
    this.target = {
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port,
      path: `${this.url.pathname}${this.url.search}`,
      ...(this.url.username
        ? {
            auth: `${decodeURIComponent(this.url.username)}:${decodeURIComponent(this.url.password)}`,
          }
        : {}),
    };
    const Agent = this.url.protocol === "https:" ? https.Agent : http.Agent;
    // Idle connections are dropped after 60 s, before the node (geth: 120 s) drops them mid-reuse.
    this.agent = new Agent({ keepAlive: true, maxSockets, scheduling: "lifo", timeout: 60_000 });
  }

  /** POSTs a JSON body and resolves with the body of a 200 answer. */
  post(body: string, timeoutMs: number): Promise<string> {
    const lib = this.url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (e: UpstreamFailure) => {
        if (settled) return;
        settled = true;
        reject(e);
      };
      const req = lib.request(
        {
          ...this.target,
          method: "POST",
          agent: this.agent,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", () =>
            fail(new UpstreamFailure(`${this.url.host}: answer cut off`, "unreachable", true)),
          );
          res.on("end", () => {
            if (settled) return;
            const text = Buffer.concat(chunks).toString("utf8");
            if (res.statusCode !== 200)
              return fail(
                new UpstreamFailure(
                  `${this.url.host} answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`,
                  "bad-answer",
                  true,
                ),
              );
            settled = true;
            clearTimeout(timer);
            resolve(text);
          });
        },
      );
      const timer = setTimeout(() => {
        fail(
          new UpstreamFailure(
            `${this.url.host} did not answer in ${timeoutMs} ms`,
            "timeout",
            true,
          ),
        );
        req.destroy();
      }, timeoutMs);
      req.on("error", (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(
          new UpstreamFailure(
            `${this.url.host}: ${e.code ?? e.message}`,
            "unreachable",
            !NOT_SENT.has(e.code ?? ""),
          ),
        );
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
