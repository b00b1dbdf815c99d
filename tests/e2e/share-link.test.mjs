// The limits of a shared link (web/embed-share.js) and the escaping of inline data in an embed
// snippet (web/inline-data.js), in Node without a browser: a link is inflated only up to
// MAX_STATE_BYTES, every field of a restored state is checked for its type and length, and a
// snippet's inline data cannot end its <script> early yet reads back byte for byte.
//
//   node --test tests/e2e/share-link.test.mjs
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {deflateRawSync} from 'node:zlib';
import {
  FRAGMENT_PREFIX, MAX_FRAGMENT_CHARS, MAX_INLINE_CHARS, MAX_STATE_BYTES, ShareLinkError, decodeState, embedSnippet,
  encodeState, inflateBounded, validateState,
} from '../../web/common/embed-share.js';
import {inlineScript, inlineText} from '../../web/common/inline-data.js';

const base64url = (bytes) => Buffer.from(bytes).toString('base64url');
/** A #pp= fragment whose packed part is the raw deflate of `text`. */
const linkOf = (text) => FRAGMENT_PREFIX + base64url(deflateRawSync(Buffer.from(text), {level: 9}));
/** A bomb: a link of `chars` characters of one letter inside a JSON string. */
const bombLink = (chars) => FRAGMENT_PREFIX + base64url(deflateRawSync(
  Buffer.concat([Buffer.from('{"m":"cassandra","s":"'), Buffer.alloc(chars, 0x61), Buffer.from('"}')]), {level: 9}));

async function rejects(promise, pattern) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof ShareLinkError, `a ShareLinkError, not ${e?.name}: ${e?.message}`);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('decoding a link', () => {
  test('a state round-trips through encodeState and decodeState', async () => {
    for (const state of [
      {m: 'cosmos', e: 'orders', k: '/address/city', h: '1', r: 12000},
      {m: 'cosmos', k: '/userId', h: 'multihash', d: '{"id":"1","userId":"<!--<script>"}\n{"id":"2","userId":"é"}'},
      {m: 'cassandra', n: 6, v: 16, s: "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'};"},
      {m: 'cassandra', e: 'uprofile-compound-key'},
      {m: 'sizing'},
    ]) {
      assert.deepEqual(await decodeState(await encodeState(state)), state);
    }
  });

  test('a fragment that is not ours is null', async () => {
    assert.equal(await decodeState(''), null);
    assert.equal(await decodeState('#section-2'), null);
  });

  test('a link inflating past the budget is refused after reading at most the budget', async () => {
    // 20 M characters packed into a link short enough to pass the length check.
    const link = bombLink(20_000_000);
    assert.ok(link.length - FRAGMENT_PREFIX.length <= MAX_FRAGMENT_CHARS, `${link.length} characters`);
    await rejects(decodeState(link), /unpacks to more than 64 KiB/);
  });

  test('inflateBounded stops at the budget and returns what fits', async () => {
    const packed = deflateRawSync(Buffer.alloc(10_000_000, 0x61));
    await rejects(inflateBounded(packed, 1000), /more than 1 KiB/);
    const small = deflateRawSync(Buffer.from('x'.repeat(MAX_STATE_BYTES)));
    assert.equal((await inflateBounded(small)).length, MAX_STATE_BYTES, 'exactly the budget is allowed');
    await rejects(inflateBounded(deflateRawSync(Buffer.from('x'.repeat(MAX_STATE_BYTES + 1)))), /more than 64 KiB/);
  });

  test('a link longer than any the page writes is refused before inflating', async () => {
    // 100 M characters: about 130 K characters of link.
    const link = bombLink(100_000_000);
    assert.ok(link.length - FRAGMENT_PREFIX.length > MAX_FRAGMENT_CHARS);
    await rejects(decodeState(link), new RegExp(`longer than any link this page writes \\(${MAX_FRAGMENT_CHARS}\\)`));
  });

  test('a damaged link says so', async () => {
    await rejects(decodeState('#pp=not*base64'), /damaged \(it is not base64url text\)/);
    await rejects(decodeState(`#pp=${base64url(Buffer.from([0xff, 0xff, 0xff, 0xff]))}`), /damaged \(it does not unpack\)/);
    await rejects(decodeState(linkOf('{"m": "cosmos"')), /damaged \(its contents are not JSON text\)/);
    await rejects(decodeState(FRAGMENT_PREFIX + base64url(deflateRawSync(Buffer.from([0x22, 0xc3, 0x28, 0x22])))),
                  /not JSON text/);
  });
});

describe('validating a restored state', () => {
  const bad = [
    [[1, 2], /does not hold a page state/],
    ['cosmos', /does not hold a page state/],
    [null, /does not hold a page state/],
    [{}, /names no mode/],
    [{m: 'oracle'}, /field "m" must be one of cosmos, cassandra, sizing/],
    [{m: 'cosmos', r: '12000'}, /field "r" must be a number above 0/],
    [{m: 'cosmos', r: -5}, /field "r"/],
    [{m: 'cosmos', r: Number.MAX_VALUE}, /field "r"/],
    [{m: 'cosmos', k: 5}, /field "k" must be text of at most 1024 characters/],
    [{m: 'cosmos', k: '/a'.repeat(513)}, /field "k"/],
    [{m: 'cosmos', h: 2}, /field "h" must be one of 1, 2, multihash/],
    [{m: 'cosmos', e: '../../etc'}, /field "e" must be an example id/],
    [{m: 'cosmos', e: 'x'.repeat(101)}, /field "e"/],
    [{m: 'cosmos', d: {items: []}}, /field "d" must be text/],
    [{m: 'cosmos', d: 'x'.repeat(MAX_INLINE_CHARS + 1)}, /field "d" must be text of at most 16384 characters/],
    [{m: 'cassandra', s: ['SELECT 1']}, /field "s"/],
    [{m: 'cassandra', n: 2.5}, /field "n" must be a whole number from 1/],
    [{m: 'cassandra', v: 0}, /field "v"/],
    [{m: 'cassandra', __proto__x: 1}, /a field "__proto__x" this page does not know/],
  ];
  for (const [state, pattern] of bad) {
    test(`refuses ${JSON.stringify(state)?.slice(0, 60)}`, async () => {
      assert.throws(() => validateState(state), (e) => e instanceof ShareLinkError && pattern.test(e.message));
      // The same through a link.
      await rejects(decodeState(linkOf(JSON.stringify(state))), pattern);
    });
  }

  test('accepts every field at its limits', () => {
    const state = {m: 'cosmos', e: 'a'.repeat(100), k: 'k'.repeat(1024), h: 'multihash', r: 1e9,
                   d: 'd'.repeat(MAX_INLINE_CHARS)};
    assert.equal(validateState(state), state);
  });
});

describe('inline data in an embed snippet', () => {
  const hostile = '[{"id": "1", "note": "<!--<script>"}, {"id": "2", "note": "</script><p>x</p>"},\n' +
    ' {"id": "3", "note": "&lt; stays &amp;lt;", "tag": "</SCRIPT >"}]';

  test('text with "<" is escaped so no "</script" or "<!--" is left, and reads back exactly', () => {
    const markup = inlineScript('application/json', hostile);
    const open = markup.indexOf('>') + 1;
    const close = markup.lastIndexOf('</script>');
    const body = markup.slice(open, close);
    assert.doesNotMatch(body, /<\/script|<!--|<script/i);
    assert.doesNotMatch(body, /</);
    assert.match(markup, /data-escaped="html"/);
    assert.equal(inlineText(body, 'html'), `\n${hostile}\n  `);
  });

  test('text without "<" goes in as it is', () => {
    const text = '{"id": "1", "note": "&amp; is text here"}';
    const markup = inlineScript('application/json', text);
    assert.doesNotMatch(markup, /data-escaped/);
    assert.ok(markup.includes(`\n${text}\n`));
    assert.equal(inlineText(text, undefined), text);
  });

  test('the snippet of a state carries its data and script escaped', () => {
    const cosmos = embedSnippet({m: 'cosmos', k: '/id', d: hostile}, 'https://docs.example/pp/partition-playground.js');
    assert.equal(cosmos.match(/<\/script/gi).length, 2, 'only the module tag and the data tag close');
    assert.doesNotMatch(cosmos, /<!--/);
    const cql = embedSnippet({m: 'cassandra', s: "SELECT * FROM t WHERE k = '</script><!--';"}, '/pp/partition-playground.js');
    assert.equal(cql.match(/<\/script/gi).length, 2);
    assert.match(cql, /<script type="text\/cql" data-escaped="html">\nSELECT \* FROM t WHERE k = '&lt;\/script>&lt;!--';/);
  });
});
