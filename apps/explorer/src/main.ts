#!/usr/bin/env -S node --import tsx
import { LoggingLive, runMain } from "@explorer/service";
import { Effect } from "effect";
import { start } from "./start.ts";

/** `npm start`: the whole service in one process, zero configuration. */
if (import.meta.url === `file://${process.argv[1]}`)
  runMain(Effect.scoped(start).pipe(Effect.provide(LoggingLive)));
