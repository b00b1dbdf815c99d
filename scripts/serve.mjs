#!/usr/bin/env node
// A small, dependency-free static file server for the Partition Playground site.
//
//   node scripts/serve.mjs [--root build/site] [--port 8080] [--no-cors]   (PORT env overrides 8080)
//
// Binds 127.0.0.1 only, serves files below --root with the right MIME types (application/wasm for
// the engine, text/javascript for modules), maps a directory to its index.html, refuses anything
// that resolves outside the root (.., encoded slashes, NUL bytes, symlinks out of the root), and
// answers GET and HEAD only; every response carries SECURITY_HEADERS (a Content-Security-Policy
// that also covers the worker, nosniff). Tests import startServer() and listen on port 0.
// The command line serves the files as a CDN must for a <partition-playground> on another
// origin's page, CORS_HEADERS on every response (docs/embedding.md "From another origin"), so
// `make serve` can be embedded with no flag; --no-cors keeps them same-origin (startServer's
// default; --cors is still read).
import {createServer} from 'node:http';
import {createReadStream} from 'node:fs';
import {realpath, stat} from 'node:fs/promises';
import {extname, join, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The repository's build/site, whatever the working directory. */
const DEFAULT_ROOT = fileURLToPath(new URL('../build/site', import.meta.url));

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.ndjson': 'application/x-ndjson; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The Content-Security-Policy of every response, so it covers the page and, through worker.js's
 * own response, the worker: everything from this origin only; 'wasm-unsafe-eval' lets the worker
 * compile the engine (the wasm is built with -sDYNAMIC_EXECUTION=0: no eval, no new Function);
 * no inline script or style; the page may be framed by pages of its own origin only (the
 * <partition-playground> element is embedded as a script, not a frame); docs/embedding.md.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * What a host of the element's files must send when pages of other origins embed it: module
 * scripts, the worker's imports, the wasm and the examples are fetched in CORS mode.
 */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** Headers every response carries. */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function send(res, status, text, headers = {}) {
  res.writeHead(status, {'Content-Type': 'text/plain; charset=utf-8',
                         'Content-Length': Buffer.byteLength(text), ...SECURITY_HEADERS, ...headers});
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/** Maps a request path to a file below `root`, or null when it would leave the root. */
async function resolveFile(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const parts = decoded.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return null;
  let file = join(root, ...parts);
  let info;
  try {
    info = await stat(file);
    if (info.isDirectory()) {
      file = join(file, 'index.html');
      info = await stat(file);
    }
    // Follow symlinks, then check the real path is still inside the (real) root.
    const real = await realpath(file);
    if (real !== root && !real.startsWith(root + sep)) return null;
    if (!info.isFile()) return undefined;
    return {file: real, info};
  } catch {
    return undefined;
  }
}

/**
 * Starts the server. Resolves to {server, url} once it listens; `port: 0` picks a free port.
 * @param {{root?: string, port?: number, host?: string, cors?: boolean}} options
 */
export async function startServer({root = DEFAULT_ROOT, port = 8080, host = '127.0.0.1', cors = false} = {}) {
  const realRoot = await realpath(resolve(root));
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'Method Not Allowed\n', {Allow: 'GET, HEAD'});
      return;
    }
    let pathname;
    try {
      pathname = new URL(req.url, 'http://localhost').pathname;
    } catch {
      send(res, 400, 'Bad Request\n');
      return;
    }
    const found = await resolveFile(realRoot, pathname);
    if (found === null) {
      send(res, 403, 'Forbidden\n');
      return;
    }
    if (!found) {
      send(res, 404, 'Not Found\n');
      return;
    }
    const type = MIME_TYPES[extname(found.file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': found.info.size,
      'Cache-Control': 'no-cache',
      'Cross-Origin-Resource-Policy': 'same-origin',
      ...SECURITY_HEADERS,
      ...(cors ? CORS_HEADERS : {}),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(found.file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const address = server.address();
  return {server, url: `http://${host}:${address.port}/`};
}

function parseArgs(argv) {
  const options = {root: DEFAULT_ROOT, port: process.env.PORT ? Number(process.env.PORT) : 8080, cors: true};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--root') options.root = value();
    else if (arg.startsWith('--root=')) options.root = arg.slice(7);
    else if (arg === '--port') options.port = Number(value());
    else if (arg.startsWith('--port=')) options.port = Number(arg.slice(7));
    else if (arg === '--cors') options.cors = true;
    else if (arg === '--no-cors') options.cors = false;
    else if (arg === '-h' || arg === '--help') {
      console.log('usage: node scripts/serve.mjs [--root build/site] [--port 8080] [--no-cors]\n' +
                  '  sends Access-Control-Allow-Origin: * and Cross-Origin-Resource-Policy: cross-origin, so\n' +
                  '  pages of other origins may embed the element; --no-cors: same-origin only');
      process.exit(0);
    } else throw new Error(`unknown argument: ${arg}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error(`bad port: ${options.port}`);
  }
  return options;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`serve.mjs: ${e.message}`);
    process.exit(2);
  }
  try {
    const {url} = await startServer(options);
    console.log(`Partition Playground: ${url}${options.cors ? ' (CORS: any origin may embed it)' : ''}`);
  } catch (e) {
    console.error(`serve.mjs: ${e.code === 'ENOENT' ? `no such directory: ${options.root}` : e.message}`);
    process.exit(1);
  }
}
