import { serve } from "@explorer/api";
import { ingesterProgram } from "@explorer/ingester";
import {
  follow,
  migrateProgram as migrate,
  ProjectorLive,
  reindexProgram as reindex,
  Store,
} from "@explorer/projector";
import { Effect } from "effect";

/** Each app's program with the services it needs but its settings (entry.ts gives them). */
export const ingestProgram = ingesterProgram;
export const projectProgram = Effect.scoped(follow).pipe(Effect.provide(ProjectorLive));
export const reindexProgram = Effect.scoped(reindex).pipe(Effect.provide(ProjectorLive));
export const migrateProgram = Effect.scoped(migrate).pipe(Effect.provide(Store.layer));
export const apiProgram = Effect.scoped(serve);
