import { createHash, timingSafeEqual } from "node:crypto";

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Whether `given` is `secret`, in time that does not depend on where they differ (both are hashed
 * first, so their lengths do not show either). `secret` undefined or empty never matches.
 */
export const sameSecret = (given: string, secret: string | undefined): boolean =>
  secret !== undefined && secret !== "" && timingSafeEqual(digest(given), digest(secret));
