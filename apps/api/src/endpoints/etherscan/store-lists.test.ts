import { storeLists } from "./store-lists.fixtures.ts";

await storeLists(false);
