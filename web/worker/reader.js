// The file reader: an engine worker's helper thread (io.js `readFile`), started by it as
//   new Worker(new URL('./reader.js', import.meta.url), {type: 'module'})
// A File's stream hands its bytes over on the thread that reads it, so an engine worker reading
// its own file stops feeding the engine while they arrive (about 60 ms per 80 MB in Chromium).
// Here they arrive on another thread, ahead of the engine, and go over in the stream's own
// chunks, transferred (not copied).
//
// Messages: this worker posts 'ready' once started. Each read is {file, port, window}: the chunks
// go out on `port` as {chunk: Uint8Array}, then {done: true} or {error: message}; the engine
// worker answers {consumed: bytes} as it takes each chunk (at most `window` bytes are ahead of it)
// and {cancel: true} when it stops early.

self.onmessage = ({data}) => {
  if (data && data.file && data.port) read(data);
};
postMessage('ready');
// The reads not yet ended (a test reads it: a cancelled read must end too).
self.readsInFlight = 0;

async function read({file, port, window}) {
  self.readsInFlight++;
  let ahead = 0;  // bytes posted and not yet taken
  let cancelled = false;
  let wake = null;
  port.onmessage = ({data}) => {
    if (data?.cancel) cancelled = true;
    else if (Number.isFinite(data?.consumed)) ahead -= data.consumed;
    const w = wake;
    wake = null;
    w?.();
  };
  let reader = null;
  try {
    reader = file.stream().getReader();
    for (;;) {
      while (ahead >= window && !cancelled) await new Promise((resolve) => (wake = resolve));
      if (cancelled) break;
      const {done, value} = await reader.read();
      if (done) {
        port.postMessage({done: true});
        break;
      }
      if (!value?.length) continue;
      // A view into a larger buffer is copied, so only its own bytes travel.
      const chunk = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
      ahead += chunk.length;
      port.postMessage({chunk}, [chunk.buffer]);
    }
  } catch (e) {
    port.postMessage({error: String(e?.message ?? e)});
  } finally {
    if (cancelled) reader?.cancel().catch(() => {});
    port.close();
    self.readsInFlight--;
  }
}
