// A real client of the Etherscan-compatible API: hardhat + @nomicfoundation/hardhat-verify,
// pointed at this API as a custom chain. Run by tests/e2e/verify.test.ts, which passes:
//   HH_API_URL   the API's /api/1.0/verify-contract      HH_RPC_URL  the chain's JSON-RPC
//   HH_API_KEY   a key the API accepts                  HH_OUT      where hardhat may write
//   HH_SOLC      JSON: version → {path, long} of local compiler builds (soljson.js), since hardhat
//                cannot download compilers here; the scenario's contracts are the sources.
const path = require("node:path");
const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
require("@nomicfoundation/hardhat-verify");

const builds = JSON.parse(process.env.HH_SOLC ?? "{}");

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  const b = builds[solcVersion];
  if (!b) throw new Error(`no local build of solc ${solcVersion} (HH_SOLC)`);
  return { compilerPath: b.path, isSolcJs: true, version: solcVersion, longVersion: b.long };
});

module.exports = {
  solidity: {
    // The scenario's settings (tests/scenario/compile.ts).
    compilers: [
      {
        version: "0.8.37",
        settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" },
      },
      { version: "0.5.17", settings: { optimizer: { enabled: false, runs: 200 } } },
    ],
  },
  paths: {
    root: path.resolve(__dirname, ".."),
    sources: "scenario/contracts",
    cache: path.join(process.env.HH_OUT ?? path.join(__dirname, ".out"), "cache"),
    artifacts: path.join(process.env.HH_OUT ?? path.join(__dirname, ".out"), "artifacts"),
  },
  networks: {
    explorer: { url: process.env.HH_RPC_URL ?? "http://127.0.0.1:8545", chainId: 262144 },
  },
  etherscan: {
    // A key per network keeps hardhat-verify on the custom chain's apiURL (a single string key
    // sends everything to Etherscan's own v2 address).
    apiKey: { explorer: process.env.HH_API_KEY ?? "none" },
    customChains: [
      {
        network: "explorer",
        chainId: 262144,
        urls: {
          apiURL: process.env.HH_API_URL ?? "http://127.0.0.1:8080/api/1.0/verify-contract",
          browserURL: (process.env.HH_API_URL ?? "http://127.0.0.1:8080").replace(
            /\/api\/1\.0.*$/,
            "",
          ),
        },
      },
    ],
  },
  sourcify: { enabled: false },
};
