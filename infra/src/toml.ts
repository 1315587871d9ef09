/**
 * Sets `key = value` inside `[section]` of a TOML document (section "" is the top level),
 * keeping everything else byte for byte. `value` is a TOML literal (quote strings yourself).
 * Throws when the key is not there, so a renamed setting in a new node version is noticed.
 */
export const setTomlKey = (text: string, section: string, key: string, value: string): string => {
  const lines = text.split("\n");
  let current = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      current = header[1]!.trim();
      continue;
    }
    if (current === section && new RegExp(`^\\s*${escapeRegExp(key)}\\s*=`).test(line)) {
      lines[i] = `${key} = ${value}`;
      return lines.join("\n");
    }
  }
  throw new Error(`setting ${section ? `[${section}] ` : ""}${key} not found`);
};

export const setTomlKeys = (
  text: string,
  settings: readonly (readonly [section: string, key: string, value: string])[],
): string => settings.reduce((t, [s, k, v]) => setTomlKey(t, s, k, v), text);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
