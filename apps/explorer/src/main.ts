// The explorer command line's entry under tsx (`tsx apps/explorer/src/main.ts <command>`: the npm
// scripts and the tests). The installed `explorer` command is bin/explorer.mjs, which registers
// tsx itself and so runs from any directory.
import "./cli/entry.ts";
