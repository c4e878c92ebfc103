// Prints what DuckDB (an outside Parquet reader) sees in a set of Parquet files, as one JSON line:
//   {"count": <rows>, "distinctOffsets": <distinct (partition, offset) pairs>, "columns": [{"name": ..., "type": ...}, ...]}
// Usage: node parquet-stats.mjs '<glob, e.g. /data/lake/orders/*/*/*.parquet>'
// The files must share one schema (as the loader's and the sink's do), or DuckDB refuses them.
import { DuckDBInstance } from '@duckdb/node-api';

const glob = process.argv[2];
if (!glob) {
  console.error('usage: node parquet-stats.mjs <parquet glob>');
  process.exit(2);
}
const source = `read_parquet('${glob.replaceAll("'", "''")}')`;
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
try {
  const counts = await connection.runAndReadAll(
    `SELECT count(*)::BIGINT AS n, count(DISTINCT (partition, "offset"))::BIGINT AS d FROM ${source}`);
  const [row] = counts.getRowObjectsJson();
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
  const columns = described.getRowObjectsJson().map((c) => ({ name: c.column_name, type: c.column_type }));
  console.log(JSON.stringify({ count: Number(row.n), distinctOffsets: Number(row.d), columns }));
} finally {
  connection.closeSync();
}
