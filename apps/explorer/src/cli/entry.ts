import { UsageError } from "./args.ts";
import { resolveInvocation } from "./run.ts";

/**
 * The explorer command line: explorer <command> [options] (npm start runs explorer start). The
 * settings are resolved once here and handed to the command's program as its Settings service.
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
  const { settings } = invocation;
  const [
    { failBriefly, LoggingLive, reportFailure, runMain, Settings, useLogSettings },
    { Effect },
    program,
  ] = await Promise.all([import("@explorer/service"), import("effect"), invocation.command.load()]);
  // Before LoggingLive is made (it takes the least level then), and before the program logs.
  useLogSettings(settings);
  // an operational failure is one line (failBriefly); any other is reported by reportFailure
  runMain(
    program.pipe(
      failBriefly,
      Effect.provide(Settings.layer(settings)),
      reportFailure("explorer"),
      Effect.provide(LoggingLive),
    ),
    { disableErrorReporting: true },
  );
};

main().catch((e) => {
  process.stderr.write(`explorer: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
