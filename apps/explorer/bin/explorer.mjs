#!/usr/bin/env node
// The `explorer` command, from any directory: TypeScript runs through tsx, found from this file
// (`node --import tsx` looks for tsx in the current directory, so it worked only in the repo).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/entry.ts");
