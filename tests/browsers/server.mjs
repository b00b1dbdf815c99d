// The cross-engine suite's server: scripts/serve.mjs over the site, untouched, behind a small
// front that adds the problem recorder (recorder.js) as the first script of every HTML page —
// a same-origin external script, so a Content-Security-Policy of the site allows it — serves
// extra pages a test defines, and notes every answer of HTTP 400 or above.
//
//   const site = await startSuiteServer({root: siteRoot});
//   site.url            'http://127.0.0.1:PORT/'
//   site.addPage('/snippet.html', html);
//   site.httpErrors     ['HTTP 404: /missing.js', ...]
//   await site.close();
import {createServer, request} from 'node:http';
import {readFileSync} from 'node:fs';
import {startServer} from '../../scripts/serve.mjs';

export const RECORDER_PATH = '/__browser-suite/recorder.js';
const recorder = readFileSync(new URL('./recorder.js', import.meta.url));
const RECORDER_TAG = `<script src="${RECORDER_PATH}"></script>`;

/** `html` with the recorder as its first script (right after <head>, or first of all). */
export function withRecorder(html) {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return RECORDER_TAG + html;
  const at = head.index + head[0].length;
  return html.slice(0, at) + RECORDER_TAG + html.slice(at);
}

function sendHtml(res, headers, html) {
  const body = Buffer.from(html, 'utf8');
  res.writeHead(200, {...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': body.length});
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export async function startSuiteServer({root}) {
  const site = await startServer({root, port: 0});
  const upstream = new URL(site.url);
  const pages = new Map();
  const httpErrors = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    if (path === RECORDER_PATH) {
      res.writeHead(200, {'content-type': 'text/javascript; charset=utf-8', 'content-length': recorder.length,
                          'cache-control': 'no-cache'});
      res.end(req.method === 'HEAD' ? undefined : recorder);
      return;
    }
    if (pages.has(path)) {
      sendHtml(res, {'cache-control': 'no-cache'}, withRecorder(pages.get(path)));
      return;
    }
    const forward = request({host: upstream.hostname, port: upstream.port, path: req.url, method: req.method,
                             headers: req.headers}, (answer) => {
      // Browsers ask for /favicon.ico on their own; the site's pages name their icon.
      if (answer.statusCode >= 400 && path !== '/favicon.ico') httpErrors.push(`HTTP ${answer.statusCode}: ${req.url}`);
      if (answer.statusCode !== 200 || req.method !== 'GET' || !String(answer.headers['content-type']).startsWith('text/html')) {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => sendHtml(res, answer.headers, withRecorder(Buffer.concat(chunks).toString('utf8'))));
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    httpErrors,
    addPage: (path, html) => pages.set(path, html),
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      site.server.closeAllConnections();
      await new Promise((done) => site.server.close(done));
    },
  };
}
