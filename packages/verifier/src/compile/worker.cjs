"use strict";
// A compiler in its own thread: loads one soljson build (through solc-js's wrapper, which also
// drives the old, pre-standard-JSON builds) and compiles standard-JSON inputs sent to it.
const { parentPort, workerData } = require("node:worker_threads");

const wrapper = require(workerData.wrapper);
const solc = wrapper(require(workerData.soljson));
parentPort.postMessage({ kind: "ready", version: solc.version() });
parentPort.on("message", (m) => {
  let output;
  let broken = false;
  try {
    output = solc.compile(m.input);
  } catch (e) {
    // The compiler threw out of its own code (a stack overflow on a deep expression, say): its
    // state is damaged and every later input would fail, so the pool ends this thread.
    broken = true;
    const message = String(e?.message || e);
    output = JSON.stringify({
      errors: [{ severity: "error", formattedMessage: message, message }],
    });
  }
  parentPort.postMessage({ kind: "done", output, broken });
});
