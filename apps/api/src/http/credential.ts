/**
 * The key or token an `Authorization` header carries: `Bearer <key>`, or HTTP Basic with the key
 * as the password (`https://:<key>@host`, `curl -u :<key>`; a user name alone, `-u <key>:`, is
 * taken as the key too), as clients that only know URL credentials send it. Undefined when the
 * header carries none (another scheme, a malformed value): the caller refuses such a header
 * rather than serving it as anonymous.
 */
export const credential = (authorization: string): string | undefined => {
  const m = /^(Bearer|Basic)\s+(\S+)\s*$/i.exec(authorization);
  if (!m) return undefined;
  if (m[1]!.toLowerCase() === "bearer") return m[2];
  const b64 = m[2]!;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  const text = Buffer.from(b64, "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon < 0) return undefined;
  const user = text.slice(0, colon);
  const password = text.slice(colon + 1);
  return password || user || undefined;
};
