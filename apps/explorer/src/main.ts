#!/usr/bin/env -S node --import tsx
// The `explorer` command (bin of this package; `npm start` runs `explorer start`). The body lives
// in cli/entry.ts: tsx cannot parse a file with both a shebang and a dynamic import.
import "./cli/entry.ts";
