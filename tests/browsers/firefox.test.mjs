// The reader paths (reader-paths.mjs) in Debian's Firefox ESR (Gecko), over WebDriver BiDi.
//   node --test tests/browsers/firefox.test.mjs      (after `make site`)
import {readerPaths} from './reader-paths.mjs';

readerPaths('firefox');
