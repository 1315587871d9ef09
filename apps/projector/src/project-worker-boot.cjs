// Worker threads do not inherit the main thread's TypeScript loader: register tsx, then load the
// worker. Through tsx's CommonJS hooks, which run on the worker's own thread: its ES module hooks
// run on a thread of their own per worker, and every import waits on it. A pool of two workers
// reached its first answers on 0.99 s of CPU against 1.24 s (medians, six alternated pairs of
// processes starting two pools each); the rows are the same (project.test.ts).
require("tsx/cjs/api").register();
require("./project-worker.ts");
