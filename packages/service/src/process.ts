/**
 * Whether a process with this id exists (signal 0 checks without signalling). One owned by another
 * user exists too (EPERM): a lock or spool file it holds is not stale.
 */
export const isAlive = (pid: number): boolean => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};
