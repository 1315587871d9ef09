/**
 * Hostile queries and the status each one gets (403: the sandbox refused it; 400: the engine's
 * parser did; 408/429: a limit cut it), for the security tests (the store's on chDB, the API's
 * through the endpoint) and docs/sql.md. `FILE` is a file the tests make, holding a secret.
 */
export interface Hostile {
  readonly sql: string;
  readonly status: 400 | 403 | 408 | 429;
  /** For a 403: the table, function or clause the refusal names. */
  readonly names?: string;
}

export const hostileQueries = (file: string): Hostile[] => [
  // Local files
  { sql: `SELECT * FROM file('${file}', 'LineAsString')`, status: 403, names: "file" },
  { sql: `SELECT file('${file}')`, status: 403, names: "file" },
  { sql: `SeLeCt * FrOm FiLe('${file}', 'LineAsString')`, status: 403, names: "FiLe" },
  { sql: `SELECT (SELECT * FROM file('${file}', 'LineAsString'))`, status: 403, names: "file" },
  { sql: `SELECT 1 UNION ALL SELECT length(file('${file}'))`, status: 403, names: "file" },
  { sql: `DESCRIBE TABLE file('${file}', 'LineAsString')`, status: 403, names: "DESCRIBE" },
  {
    sql: `SELECT * FROM explorer.blocks INTO OUTFILE '${file}.out'`,
    status: 403,
    names: "OUTFILE",
  },
  {
    sql: `INSERT INTO FUNCTION file('${file}.w', 'CSV', 'a UInt8') SELECT 1`,
    status: 403,
    names: "INSERT",
  },
  { sql: "SELECT * FROM filesystem('/')", status: 403, names: "filesystem" },
  // URLs, loopback and the metadata service, other servers and programs
  {
    sql: "SELECT * FROM url('http://127.0.0.1:8123/?query=SELECT+1', 'TSV', 'a String')",
    status: 403,
    names: "url",
  },
  {
    sql: "SELECT * FROM url('http://169.254.169.254/latest/meta-data/', 'LineAsString')",
    status: 403,
    names: "url",
  },
  { sql: "SELECT * FROM url('http://[::1]:8123/', 'LineAsString')", status: 403, names: "url" },
  {
    sql: "SELECT * FROM s3('http://169.254.169.254/b/k', 'CSV', 'a String')",
    status: 403,
    names: "s3",
  },
  { sql: "SELECT * FROM remote('127.0.0.1:9000', system.one)", status: 403, names: "remote" },
  {
    sql: "SELECT * FROM remoteSecure('localhost:9440', system.one)",
    status: 403,
    names: "remoteSecure",
  },
  { sql: "SELECT * FROM cluster('default', system.one)", status: 403, names: "cluster" },
  { sql: "SELECT * FROM mysql('127.0.0.1:3306', 'd', 't', 'u', 'p')", status: 403, names: "mysql" },
  {
    sql: "SELECT * FROM postgresql('127.0.0.1:5432', 'd', 't', 'u', 'p')",
    status: 403,
    names: "postgresql",
  },
  {
    sql: "SELECT * FROM executable('cat /etc/passwd', 'LineAsString', 'a String')",
    status: 403,
    names: "executable",
  },
  { sql: "SELECT * FROM input('a String')", status: 403, names: "input" },
  { sql: "SELECT * FROM jdbc('jdbc:mysql://127.0.0.1/d', 't')", status: 403, names: "jdbc" },
  { sql: "SELECT * FROM odbc('DSN=x', 't')", status: 403, names: "odbc" },
  {
    sql: "SELECT * FROM hdfs('hdfs://127.0.0.1:9000/f', 'CSV', 'a String')",
    status: 403,
    names: "hdfs",
  },
  {
    sql: "SELECT * FROM explorer.blocks WHERE height IN (SELECT n FROM url('http://127.0.0.1/', 'TSV', 'n UInt64'))",
    status: 403,
    names: "url",
  },
  // Other databases and tables
  {
    sql: "SELECT * FROM explorer_meta.current_set",
    status: 403,
    names: "explorer_meta.current_set",
  },
  { sql: "SELECT * FROM `system`.`processes`", status: 403, names: "system.processes" },
  { sql: "SELECT * FROM system.users", status: 403, names: "system.users" },
  { sql: "SELECT * FROM default.secret", status: 403, names: "default.secret" },
  { sql: "SELECT * FROM secret", status: 403, names: "default.secret" },
  { sql: "WITH x AS (SELECT * FROM secret) SELECT * FROM x", status: 403, names: "default.secret" },
  {
    sql: "SELECT * FROM information_schema.tables",
    status: 403,
    names: "information_schema.tables",
  },
  { sql: "SELECT * FROM merge('explorer_meta', '.*')", status: 403, names: "merge" },
  { sql: "SELECT * FROM view(SELECT * FROM default.secret)", status: 403, names: "view" },
  { sql: "SELECT * FROM dictionary('d')", status: 403, names: "dictionary" },
  { sql: "SELECT dictGet('d', 'a', toUInt64(1))", status: 403, names: "dictGet" },
  { sql: "SELECT joinGet('j', 'v', 1)", status: 403, names: "joinGet" },
  // Settings changes
  { sql: "SELECT 1 SETTINGS max_execution_time = 0", status: 403, names: "SETTINGS" },
  { sql: "SELECT * FROM (SELECT 1 SETTINGS readonly = 0)", status: 403, names: "SETTINGS" },
  { sql: "SET max_memory_usage = 0", status: 403, names: "SET" },
  // Second statements, comments, casing, writes, DDL, SYSTEM, KILL
  { sql: "SELECT 1; DROP TABLE explorer_1.blocks", status: 400 },
  { sql: "SELECT 1 /* ; */; DROP DATABASE explorer_1 -- ;", status: 400 },
  { sql: "SELECT 1 -- comment\n; TRUNCATE TABLE explorer_1.blocks", status: 400 },
  { sql: "select 1;\nselect * from file('/etc/passwd', 'LineAsString')", status: 400 },
  { sql: "DROP TABLE explorer_1.blocks", status: 403, names: "DROP" },
  { sql: "INSERT INTO explorer_1.blocks VALUES (9, 'x')", status: 403, names: "INSERT" },
  { sql: "CREATE TABLE explorer.t (a Int8) ENGINE = Memory", status: 403, names: "CREATE" },
  { sql: "ALTER TABLE explorer_1.blocks DELETE WHERE 1", status: 403, names: "ALTER" },
  { sql: "TRUNCATE TABLE explorer_1.blocks", status: 403, names: "TRUNCATE" },
  { sql: "SYSTEM SHUTDOWN", status: 403, names: "SYSTEM" },
  { sql: "KILL QUERY WHERE 1", status: 403, names: "KILLQUERY" },
  { sql: "EXPLAIN SELECT * FROM file('/etc/passwd')", status: 403, names: "EXPLAIN" },
  { sql: "SELECT * FROM explorer.blocks FORMAT Native", status: 403, names: "FORMAT" },
  { sql: "SELECT sleepEachRow(3) FROM numbers(100)", status: 403, names: "sleepEachRow" },
  // Huge results, endless queries, memory bombs
  { sql: "SELECT number FROM numbers(10000000)", status: 429 },
  { sql: "SELECT * FROM generate_series(1, 10000000000)", status: 429 },
  { sql: "SELECT count() FROM numbers(1000000000000)", status: 408 },
  {
    sql: "SELECT count() FROM numbers(100000) AS a CROSS JOIN numbers(100000000) AS b",
    status: 429,
  },
  { sql: "SELECT max(length(toString(number))) FROM numbers(1000000000000)", status: 408 },
  { sql: "SELECT groupArray(number) FROM numbers(100000000)", status: 429 },
  { sql: "SELECT length(groupArray(repeat('x', 1000))) FROM numbers(10000000)", status: 429 },
  { sql: "SELECT uniqExact(number) FROM numbers(100000000)", status: 429 },
];
