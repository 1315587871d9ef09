import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Figure, printTable } from "./table.ts";

/**
 * `npm run bench`: runs every `*.bench.ts` under tests/bench (each exports `run(): Promise<Figure[]>`)
 * one after the other, and prints one table of all figures. `npm run bench -- ingest` runs those
 * whose file name contains "ingest".
 */
const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? "";
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
  .sort();
const figures: Figure[] = [];
for (const f of files) {
  process.stderr.write(`[bench] ${f}\n`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { run(): Promise<Figure[]> };
  figures.push(...(await mod.run()));
}
console.log(figures.length === 0 ? "no benchmarks yet" : printTable(figures));
process.exit(0);
