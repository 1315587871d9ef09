/** Blockscout stats' own paths: /api/v1/counters, /api/v1/lines, /api/v1/lines/{id}. */
const V1 = /^\/api\/v1\/(counters|lines)(?=[/?]|$)/;

/**
 * The URL a request of the stats service's own paths is answered at (`/api/1.0/stats/…`, query
 * kept), so that a frontend set up for a Blockscout stats host can point here; any other URL as it is.
 */
export const statsV1Url = (url: string): string =>
  V1.test(url) ? `/api/1.0/stats/${url.slice("/api/v1/".length)}` : url;
