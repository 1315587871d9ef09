import type { ApiSettings } from "../../http/app.ts";

/** The chain's first native coin's denom: the one fees are counted in (as `/stat` does). */
export const nativeDenom = (settings: ApiSettings): string =>
  [...settings.nativeCoins.values()][0] ?? "";
