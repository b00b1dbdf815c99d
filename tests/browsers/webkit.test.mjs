// The reader paths (reader-paths.mjs) in WebKitGTK's MiniBrowser (WebKit, the engine of Safari), through WebKitWebDriver on Xvfb.
//   node --test tests/browsers/webkit.test.mjs      (after `make site`)
import {readerPaths} from './reader-paths.mjs';

readerPaths('webkit');
