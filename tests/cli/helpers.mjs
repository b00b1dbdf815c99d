// Shared by the CLI tests: the binary, a run of it, and a run with standard error on a
// pseudo-terminal (util-linux's `script`).
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'build/native/partplay');

/** Runs partplay with `args`; {status, signal, stdout, stderr} as text. */
export function run(args, options = {}) {
  const r = spawnSync(CLI, args, {encoding: 'utf8', maxBuffer: 1 << 28, ...options});
  return {status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr};
}

const quote = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`;

/**
 * Runs partplay with stderr on a pseudo-terminal: {status, stdout, stderr}. util-linux's
 * `script` runs the command on a new terminal and copies what it shows; the command's stdout
 * goes to a file, so what `script` copies is stderr alone (with the terminal's \n -> \r\n).
 */
export function runOnTerminal(args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-pty-'));
  const outFile = path.join(dir, 'stdout');
  try {
    const command = [CLI, ...args].map(quote).join(' ') + ' >' + quote(outFile);
    const r = spawnSync('script', ['-qfec', command, '/dev/null'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
    if (r.error) throw r.error;
    return {status: r.status, stdout: fs.readFileSync(outFile, 'utf8'), stderr: r.stdout};
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

/** The commands `partplay --help` lists. */
export function commands() {
  const help = run(['--help']).stdout;
  const section = help.split('commands:\n')[1].split('\n\n')[0];
  return section.split('\n').map((line) => line.trim().split(/\s+/)[0]);
}
