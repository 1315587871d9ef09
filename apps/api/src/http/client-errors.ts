import { type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/** What a request Node's HTTP parser refused gets: status and message. */
export const clientErrorAnswer = (code: string | undefined): [number, string] => {
  if (code === "HPE_HEADER_OVERFLOW")
    return [431, "request line and headers are larger than 16 KiB: shorten the URL or headers"];
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return [408, "the request did not arrive in time"];
  return [400, "malformed HTTP request"];
};

/**
 * Requests that Node's HTTP parser refuses before the app sees them (a request line and headers
 * beyond --max-http-header-size, malformed syntax, a timeout) get the API's error shape too:
 * `{error}` with 431, 400 or 408 and CORS, instead of Node's bare status line.
 */
export const answerClientErrors = <S extends Server>(server: S): S =>
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, error] = clientErrorAnswer(err.code);
    const body = JSON.stringify({ error });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        "content-type: application/json; charset=utf-8",
        `content-length: ${Buffer.byteLength(body)}`,
        "access-control-allow-origin: *",
        "connection: close",
        "",
        body,
      ].join("\r\n"),
    );
  });
