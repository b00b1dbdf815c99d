// The reader paths (reader-paths.mjs) in WebKitGTK's MiniBrowser with wasm SIMD turned off in
// JavaScriptCore (JSC_useWasmSIMD=0), as in Safari before 16.4: the page's probe finds SIMD
// missing and every worker loads the engine built without it (partplay-nosimd).
//   node --test tests/browsers/webkit-nosimd.test.mjs      (after `make site`)
import {readerPaths} from './reader-paths.mjs';

readerPaths('webkit', {simd: false, env: {JSC_useWasmSIMD: '0'}});
