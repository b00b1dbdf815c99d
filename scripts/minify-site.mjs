#!/usr/bin/env node
// The site's JavaScript, made smaller in place (`make site` runs this on build/site):
//
//   node scripts/minify-site.mjs [--root build/site]
//
// 1. vendor/d3.min.js: only the D3 functions the charts call (d3-selection, -scale, -axis,
//    -array, -format, -shape), bundled by esbuild as the same classic script setting window.d3,
//    in place of the whole of D3.
// 2. Every other .js and .mjs file (the page, the element, the worker, the engine's glue) and
//    the stylesheet are minified one to one: same file, same URL, same module graph (no
//    bundling), with an external source map beside each (file.js.map), so the browser's debugger
//    still shows the sources. examples/ is left as it is.
import {readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {basename, dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import * as esbuild from 'esbuild';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let root = join(repo, 'build', 'site');
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--root') root = resolve(process.argv[++i]);
  else {
    console.error(`minify-site.mjs: unknown argument ${arg}`);
    process.exit(2);
  }
}

// What the chart modules call as d3().name (web/common/charts.js, cosmos/container-charts.js,
// cassandra/ring-chart.js, sizing/sizing-charts.js); the selection methods come with select.
const D3_ENTRY = `
export {select, selectAll} from 'd3-selection';
export {scaleBand, scaleLinear, scaleLog} from 'd3-scale';
export {axisBottom, axisLeft} from 'd3-axis';
export {max, min} from 'd3-array';
export {format} from 'd3-format';
export {arc, area, line} from 'd3-shape';
`;

const d3Out = join(root, 'vendor', 'd3.min.js');
await esbuild.build({
  stdin: {contents: D3_ENTRY, resolveDir: repo, loader: 'js'},
  bundle: true, format: 'iife', globalName: 'd3', minify: true, target: 'es2020',
  outfile: d3Out, legalComments: 'eof', logLevel: 'warning',
});

const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'examples') walk(path);
    } else if (/\.(m?js|css)$/.test(name) && path !== d3Out) {
      files.push(path);
    }
  }
})(root);

let before = 0;
let after = 0;
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const css = file.endsWith('.css');
  const result = await esbuild.transform(source, css
    ? {minify: true, loader: 'css', sourcemap: 'external', sourcefile: basename(file)}
    : {minify: true, loader: 'js', format: 'esm', target: 'es2022', sourcemap: 'external',
       sourcefile: basename(file), legalComments: 'inline'});
  const mapComment = css ? `/*# sourceMappingURL=${basename(file)}.map */` : `//# sourceMappingURL=${basename(file)}.map`;
  writeFileSync(file, `${result.code}${mapComment}\n`);
  writeFileSync(`${file}.map`, result.map);
  before += source.length;
  after += result.code.length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`minified ${files.length} files (${relative(process.cwd(), root) || '.'}): ${kb(before)} -> ${kb(after)}; ` +
            `vendor/d3.min.js: the D3 subset the charts use, ${kb(statSync(d3Out).size)}`);
