/**
 * Node.js flags a projector process runs with (`explorer project` and `explorer reindex` through
 * the npm scripts and the production image; the project bench's child).
 *
 * `--single-threaded-gc`: V8 collects each thread's heap on that thread instead of handing the
 * work to its helper threads. A projector keeps both cores busy (two projection workers and the
 * engine's inserts), so the helpers only add work: the project bench (300,024 txs, 2 cores, two
 * rounds of two runs each way, interleaved) 11,867 and 12,055 txs/s with it against 10,564 and
 * 8,974 without, 11.7–11.9 against 13.3–15.5 ms of CPU per block.
 * It is a flag of the process: the API's process (`explorer api`, and `explorer start`, which runs
 * everything in one) keeps V8's default, whose helpers shorten the pauses of answering requests.
 */
export const PROJECTOR_NODE_FLAGS = ["--single-threaded-gc"] as const;
