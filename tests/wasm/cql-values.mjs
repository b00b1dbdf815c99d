// Seeded CQL values for the token cross-checks against cassandra-driver: each generator answers
// {value (as the driver takes it), literal (as CQL writes it)}. cliTokens asks the native CLI
// (`partplay token --types T --stdin`) for the tokens of rows of literals.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';

import {mulberry32} from '../../scripts/prng.mjs';
import {CLI} from './helpers.mjs';

export function cqlValues(seed) {
  const next = mulberry32(seed);
  const int = (n) => Math.floor(next() * n);
  const cqlString = (s) => `'${s.replaceAll("'", "''")}'`;
  return {
    next, int, cqlString,
    int32() {
      const v = int(2 ** 32) - 2 ** 31;
      return {value: v, literal: String(v)};
    },
    bigint() {
      const v = BigInt.asIntN(64, (BigInt(int(2 ** 32)) << 32n) | BigInt(int(2 ** 32)));
      return {value: v, literal: v.toString()};
    },
    smallint() {
      const v = int(2 ** 16) - 2 ** 15;
      return {value: v, literal: String(v)};
    },
    double() {
      const v = (next() - 0.5) * 10 ** int(12);
      return {value: v, literal: String(v)};
    },
    float32() {
      const v = Math.fround((next() - 0.5) * 10 ** int(8));
      return {value: v, literal: String(v)};
    },
    // Non-ASCII characters; with `long`, a quarter past 127 bytes (a two-byte vint length).
    text({long = false} = {}) {
      let s = '';
      const n = long && int(4) === 0 ? 100 + int(200) : int(12);
      for (let k = 0; k < n; ++k) s += String.fromCodePoint(int(4) === 0 ? 0xe9 + int(200) : 0x20 + int(0x5f));
      return {value: s, literal: cqlString(s)};
    },
  };
}

export function cliTokens(typeList, rows, cli = process.env.PARTPLAY_CLI ?? CLI) {
  const input = rows.map((literals) => JSON.stringify(literals)).join('\n') + '\n';
  const r = spawnSync(cli, ['token', '--types', typeList, '--stdin'], {input, encoding: 'utf8', maxBuffer: 1 << 26});
  assert.equal(r.status, 0, `partplay token failed (${r.status}): ${r.stderr}`);
  return r.stdout.trimEnd().split('\n');
}
