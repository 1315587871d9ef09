import { shownDefault } from "@explorer/service/settings";
import type { Command } from "./commands.ts";
import { DEFAULT_CONFIG_FILE } from "./config-file.ts";
import type { Option } from "./options.ts";

const wrap = (text: string, width = 80, indent = ""): string => {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > width - indent.length) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
};

const SETTINGS = `Every option can also be set by its environment variable, or in a JSON config file (--config <file>, default ./${DEFAULT_CONFIG_FILE} when present) whose keys are option names, e.g. {"store": "http://ch:8123", "api": {"port": 8081}} (a key named after a command holds settings for that command only). The command line wins over the environment, the environment over the config file, the file over the defaults.`;

export const mainHelp = (commands: readonly Command[]): string => {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    "explorer: block-explorer backend for Cosmos-EVM chains (REST index API, stream, JSON-RPC, SQL)",
    "",
    "Usage: explorer <command> [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    wrap(SETTINGS),
    "",
    "Run `explorer <command> --help` for a command's options.",
    "",
  ].join("\n");
};

const optionLine = (o: Option): [string, string] => [
  `--${o.flag}${o.kind === "bool" ? " [true|false]" : ` ${o.value ?? "<value>"}`}`,
  `${o.help} (env ${o.env}${o.kind === "secret" ? "" : `, default ${shownDefault(o)}`})`,
];

export const commandHelp = (c: Command): string => {
  const lines = [
    ...c.options.map(optionLine),
    ["--config <file>", `read settings from a JSON file (default ./${DEFAULT_CONFIG_FILE})`],
    ["--help", "show this help"],
  ] as [string, string][];
  const width = Math.max(...lines.map(([l]) => l.length)) + 2;
  return [
    `explorer ${c.name}: ${c.summary}`,
    "",
    wrap(c.details),
    "",
    `Usage: explorer ${c.name} [options]`,
    "",
    "Options:",
    ...lines.map(
      ([l, r]) => `  ${l.padEnd(width)}${wrap(r, 100, " ".repeat(width + 2)).trimStart()}`,
    ),
    "",
    wrap(SETTINGS),
    "",
  ].join("\n");
};
