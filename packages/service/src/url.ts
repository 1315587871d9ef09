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
