/** CORS of every answer: any origin, the API's methods, and the headers clients send. */
export const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type",
} as const;

/**
 * The answer headers a browser's script may read across origins (CORS lets it read only a few
 * by default): the rate limit's and the request id.
 */
export const EXPOSED_HEADERS =
  "retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-request-id";
