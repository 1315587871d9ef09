import { UsageError } from "./args.ts";
import { resolveInvocation } from "./run.ts";

/**
 * The explorer command line: explorer <command> [options] (npm start runs explorer start). Settings become environment
 * variables, which the apps read; logging is set up after them (LOG_FORMAT, LOG_LEVEL).
 */
const main = async () => {
  let invocation: ReturnType<typeof resolveInvocation>;
  try {
    invocation = resolveInvocation(process.argv.slice(2), process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`explorer: ${e.message}\n`);
    process.exit(2);
  }
  if (invocation.kind === "help") {
    process.stdout.write(invocation.text);
    return;
  }
  Object.assign(process.env, invocation.env);
  const [{ failBriefly, LoggingLive, runMain }, { Effect }, program] = await Promise.all([
    import("@explorer/service"),
    import("effect"),
    invocation.command.load(),
  ]);
  runMain(program.pipe(failBriefly, Effect.provide(LoggingLive)));
};

main().catch((e) => {
  process.stderr.write(`explorer: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
