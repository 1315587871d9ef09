/**
 * The compiler releases the service knows, as data: version → the commit it was built from (the
 * long version `v<version>+commit.<hash>` is what tools send and what the compiler's own
 * `version()` answers). Taken from the solc-bin release lists; a fetched compiler is checked
 * against its entry before use, so an entry cannot silently name another build.
 */
const COMMITS: Record<string, string> = {
  "0.4.10": "f0d539ae",
  "0.4.11": "68ef5810",
  "0.4.12": "194ff033",
  "0.4.13": "0fb4cb1a",
  "0.4.14": "c2215d46",
  "0.4.15": "bbb8e64f",
  "0.4.16": "d7661dd9",
  "0.4.17": "bdeb9e52",
  "0.4.18": "9cf6e910",
  "0.4.19": "c4cbbb05",
  "0.4.20": "3155dd80",
  "0.4.21": "dfe3193c",
  "0.4.22": "4cb486ee",
  "0.4.23": "124ca40d",
  "0.4.24": "e67f0147",
  "0.4.25": "59dbf8f1",
  "0.4.26": "4563c3fc",
  "0.5.0": "1d4f565a",
  "0.5.1": "c8a2cb62",
  "0.5.2": "1df8f40c",
  "0.5.3": "10d17f24",
  "0.5.4": "9549d8ff",
  "0.5.5": "47a71e8f",
  "0.5.6": "b259423e",
  "0.5.7": "6da8b019",
  "0.5.8": "23d335f2",
  "0.5.9": "e560f70d",
  "0.5.10": "5a6ea5b1",
  "0.5.11": "c082d0b4",
  "0.5.12": "7709ece9",
  "0.5.13": "5b0b510c",
  "0.5.14": "01f1aaa4",
  "0.5.15": "6a57276f",
  "0.5.16": "9c3226ce",
  "0.5.17": "d19bba13",
  "0.6.0": "26b70077",
  "0.6.1": "e6f7d5a4",
  "0.6.2": "bacdbe57",
  "0.6.3": "8dda9521",
  "0.6.4": "1dca32f3",
  "0.6.5": "f956cc89",
  "0.6.6": "6c089d02",
  "0.6.7": "b8d736ae",
  "0.6.8": "0bbfe453",
  "0.6.9": "3e3065ac",
  "0.6.10": "00c0fcaf",
  "0.6.11": "5ef660b1",
  "0.6.12": "27d51765",
  "0.7.0": "9e61f92b",
  "0.7.1": "f4a555be",
  "0.7.2": "51b20bc0",
  "0.7.3": "9bfce1f6",
  "0.7.4": "3f05b770",
  "0.7.5": "eb77ed08",
  "0.7.6": "7338295f",
  "0.8.0": "c7dfd78e",
  "0.8.1": "df193b15",
  "0.8.2": "661d1103",
  "0.8.3": "8d00100c",
  "0.8.4": "c7e474f2",
  "0.8.5": "a4f2e591",
  "0.8.6": "11564f7e",
  "0.8.7": "e28d00a7",
  "0.8.8": "dddeac2f",
  "0.8.9": "e5eed63a",
  "0.8.10": "fc410830",
  "0.8.11": "d7f03943",
  "0.8.12": "f00d7308",
  "0.8.13": "abaa5c0e",
  "0.8.14": "80d49f37",
  "0.8.15": "e14f2714",
  "0.8.16": "07a7930e",
  "0.8.17": "8df45f5f",
  "0.8.18": "87f61d96",
  "0.8.19": "7dd6d404",
  "0.8.20": "a1b79de6",
  "0.8.21": "d9974bed",
  "0.8.22": "4fc1097e",
  "0.8.23": "f704f362",
  "0.8.24": "e11b9ed9",
  "0.8.25": "b61c2a91",
  "0.8.26": "8a97fa7a",
  "0.8.27": "40a35a09",
  "0.8.28": "7893614a",
  "0.8.29": "ab55807c",
  "0.8.30": "73712a01",
  "0.8.31": "fd3a2265",
  "0.8.32": "ebbd65e5",
  "0.8.33": "64118f21",
  "0.8.34": "80d5c536",
  "0.8.35": "47b9dedd",
  "0.8.36": "8a079791",
  "0.8.37": "f401782d",
};

export interface Release {
  /** `0.8.28` */
  readonly version: string;
  /** `v0.8.28+commit.7893614a` */
  readonly long: string;
}

const parts = (v: string) => v.split(".").map(Number);
const newerFirst = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return y[i]! - x[i]!;
  return 0;
};

/** Every release, newest first. */
export const RELEASES: readonly Release[] = Object.keys(COMMITS)
  .sort(newerFirst)
  .map((version) => ({ version, long: `v${version}+commit.${COMMITS[version]}` }));

/** Orders versions: negative when `a` is older than `b`. */
export const compareVersions = (a: string, b: string): number => -newerFirst(a, b);

/**
 * The release a client names: `v0.8.28+commit.7893614a`, `0.8.28+commit.7893614a` or `0.8.28`
 * (a trailing `.Emscripten.clang` is ignored). A long version must carry the release's own commit.
 */
export const findRelease = (name: string): Release | undefined => {
  const m = /^v?(\d+\.\d+\.\d+)(?:\+commit\.([0-9a-f]{8}))?(?:\.Emscripten\.clang)?$/.exec(
    name.trim(),
  );
  if (!m) return undefined;
  const commit = COMMITS[m[1]!];
  if (!commit || (m[2] !== undefined && m[2] !== commit)) return undefined;
  return { version: m[1]!, long: `v${m[1]}+commit.${commit}` };
};
