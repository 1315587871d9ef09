/**
 * A URL as logs and answers show it: scheme and host, and the path when `path` is set; never the
 * credentials or the query, and by default not the path either (providers put API keys in
 * paths: `https://host/v2/<key>`). What is not a URL shows as such.
 */
export const publicUrl = (url: string, o: { path?: boolean } = {}): string => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${o.path ? u.pathname : ""}`;
  } catch {
    return "(not a URL)";
  }
};

/**
 * A URL's `user:pass@` as an HTTP Basic `authorization` header, and the URL without them: fetch
 * refuses a URL that holds credentials (quoting it, password and all, in its error).
 */
export const withCredentials = (url: string): { url: string; headers: Record<string, string> } => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, headers: {} };
  }
  if (!u.username && !u.password) return { url, headers: {} };
  const basic = `${decoded(u.username)}:${decoded(u.password)}`;
  u.username = "";
  u.password = "";
  return {
    url: u.toString(),
    headers: { authorization: `Basic ${Buffer.from(basic).toString("base64")}` },
  };
};

/** Percent-decoded, or as written where it is not valid percent-encoding (a bare `%`). */
const decoded = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
