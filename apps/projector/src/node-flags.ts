/**
 * Node.js flags a projector process runs with (`explorer project` and `explorer reindex` through
 * the npm scripts and the production image; the project bench's child).
 *
 * `--single-threaded-gc`: V8 collects each thread's heap on that thread instead of handing the
 * work to its helper threads. A projector keeps both cores busy (two projection workers and the
 * engine's inserts), so helper threads only add work: on the bench's dense blocks (2 cores, three
 * runs each way, interleaved) 13.31 against 13.92 ms of CPU per block, 10,120 against 9,180 txs/s.
 * It is a flag of the process: the API's process (`explorer api`, and `explorer start`, which runs
 * everything in one) keeps V8's default, whose helpers shorten the pauses of answering requests.
 */
export const PROJECTOR_NODE_FLAGS = ["--single-threaded-gc"] as const;
