import { readdirSync, readFileSync } from "node:fs";
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
/** Busy and total CPU time of the machine so far (Linux /proc/stat; undefined elsewhere). */
const cpuTimes = (): { busy: number; total: number } | undefined => {
  try {
    const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const n = fields.map(Number);
    const idle = n[3]! + (n[4] ?? 0);
    const total = n.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
};

/**
 * How busy the machine's CPUs are over one second before a bench, with nothing of ours running:
 * other processes (a reference chain left running by `EXPLORER_KEEP_CHAIN`, ~65% of a core)
 * lower every figure of a bench that does not need them.
 */
const busyBefore = async (): Promise<number | undefined> => {
  const a = cpuTimes();
  await new Promise((r) => setTimeout(r, 1000));
  const b = cpuTimes();
  return a && b && b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : undefined;
};

const figures: Figure[] = [];
for (const f of files) {
  process.stderr.write(`[bench] ${f}\n`);
  const busy = await busyBefore();
  if (busy !== undefined && busy > 0.15)
    process.stderr.write(
      `[bench] before ${f}, the CPUs were ${Math.round(busy * 100)}% busy with other processes: its figures will be lower than on an idle machine (a reference chain left running? \`npm run chain:stop\`)\n`,
    );
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { run(): Promise<Figure[]> };
  figures.push(...(await mod.run()));
}
console.log(figures.length === 0 ? "no benchmarks yet" : printTable(figures));
process.exit(0);
