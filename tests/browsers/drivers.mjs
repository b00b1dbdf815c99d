// One small page API over the two browser engines the Chromium suite (tests/e2e/) does not reach:
//
//   firefox  Debian's firefox-esr, driven by npm puppeteer-core over WebDriver BiDi
//   webkit   WebKitGTK's MiniBrowser (the engine of Safari), driven by npm selenium-webdriver
//            through Debian's WebKitWebDriver, on an Xvfb display this module starts
//
//   const browser = await launch('webkit');
//   const page = await browser.openPage(url);     // one page at a time per browser
//   await page.click('[data-testid="analyze-button"]');
//   assert.deepEqual(await page.problems(), []);  // console errors, page errors, rejections, ...
//   await browser.close();
//
// WebKitWebDriver has no log API, so problems are recorded in the page itself by
// recorder.js, which the suite's server (server.mjs) adds to every HTML page it serves; Firefox
// adds its own console and page-error events. Nothing is downloaded: the binaries are Debian's
// (FIREFOX, WEBKIT_MINIBROWSER and WEBKIT_WEBDRIVER override their paths).
import {spawn} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import puppeteer from 'puppeteer-core';
import {Builder, By, Key} from 'selenium-webdriver';

export const ENGINES = ['firefox', 'webkit'];
export const VIEWPORT = {width: 1360, height: 1000};
export const TIMEOUT = 60_000;

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const MINIBROWSER = process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const WEBDRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
const POLL_MS = 50;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The page's own record (recorder.js) and the resources it fetched from another origin. */
function pageRecord() {
  if (!location.protocol.startsWith('http')) return [];  // about:blank: nothing of ours ran
  const problems = [...(window.__ppProblems ?? ['recorder.js did not run on this page'])];
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name);
    if (url.origin !== location.origin && url.protocol !== 'blob:' && url.protocol !== 'data:') {
      problems.push(`off-origin request: ${entry.name}`);
    }
  }
  return problems;
}

/**
 * What every engine's page offers, built on the primitives each engine's subclass implements:
 * navigate, evaluate (a function and JSON arguments; a returned promise is awaited),
 * engineProblems, click, keys, press, setFiles, screenshot and close. Selectors are CSS selectors
 * in the document (reach into shadow roots with evaluate).
 */
class Page {
  /** Problems of documents this page already left. */
  past = [];

  /** Navigates (a real load) and keeps the problems of the document it leaves. */
  async goto(url) {
    this.past.push(...await this.#record());
    await this.navigate(url);
  }

  #record() {
    return this.evaluate(pageRecord);
  }

  /** Every problem so far: this document's and the ones left behind, plus the engine's own reports. */
  async problems() {
    return [...this.past, ...await this.#record(), ...this.engineProblems()];
  }

  /** Polls `predicate(arg)` in the page until it is truthy; returns its value. */
  async waitFor(predicate, arg, {timeout = TIMEOUT, what = String(predicate)} = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const value = await this.evaluate(predicate, arg);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
      await sleep(POLL_MS);
    }
  }

  /** Sets the value of an input, textarea or select, as Playwright's fill does. */
  async fill(selector, value) {
    await this.evaluate((sel, v) => {
      const el = document.querySelector(sel);
      if (!el) throw new Error(`no element ${sel}`);
      el.focus();
      el.value = v;
      // As typing or pasting would: an InputEvent for text, input and change for a select.
      if (el.tagName === 'SELECT') {
        el.dispatchEvent(new Event('input', {bubbles: true}));
        el.dispatchEvent(new Event('change', {bubbles: true}));
      } else {
        el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertText', data: v}));
      }
    }, selector, value);
  }

  select(selector, value) {
    return this.fill(selector, value);
  }

  /** Types `text` with real key events over the field's whole content, then presses Enter if asked. */
  async type(selector, text, {enter = false} = {}) {
    await this.evaluate((sel) => {
      const el = document.querySelector(sel);
      el.focus();
      el.select();
    }, selector);
    await this.keys(selector, text, enter);
  }

  async scrollIntoView(selector) {
    await this.evaluate((sel) => document.querySelector(sel).scrollIntoView({block: 'center'}), selector);
  }

  value(selector) {
    return this.evaluate((sel) => document.querySelector(sel).value, selector);
  }

  attribute(selector, name) {
    return this.evaluate((sel, n) => document.querySelector(sel)?.getAttribute(n) ?? null, selector, name);
  }

  text(selector) {
    return this.evaluate((sel) => document.querySelector(sel).textContent, selector);
  }

  visible(selector) {
    return this.evaluate((sel) => {
      const el = document.querySelector(sel);
      return Boolean(el && el.checkVisibility ? el.checkVisibility() : el?.getClientRects().length);
    }, selector);
  }
}

// ---------------------------------------------------------------------------------------------
// Firefox: puppeteer-core over WebDriver BiDi, a fresh browser context (profile state) per page.

class FirefoxPage extends Page {
  #page;
  #context;
  #events = [];

  static async open(browser, url) {
    const self = new FirefoxPage();
    self.#context = await browser.createBrowserContext();
    self.#page = await self.#context.newPage();
    await self.#page.setViewport(VIEWPORT);
    self.#page.on('console', (m) => {
      if (m.type() === 'error') self.#events.push(`console.error: ${m.text()}`);
    });
    self.#page.on('pageerror', (e) => self.#events.push(`pageerror: ${e.message ?? e}`));
    await self.navigate(url);
    return self;
  }

  navigate(url) {
    return this.#page.goto(url, {waitUntil: 'load', timeout: TIMEOUT});
  }

  evaluate(fn, ...args) {
    return this.#page.evaluate(fn, ...args);
  }

  engineProblems() {
    return [...this.#events];
  }

  async click(selector) {
    await this.#page.click(selector);
  }

  async keys(selector, text, enter) {
    await this.#page.focus(selector);
    await this.#page.keyboard.type(text);
    if (enter) await this.#page.keyboard.press('Enter');
  }

  async press(selector, key) {
    await this.#page.focus(selector);
    await this.#page.keyboard.press(key);
  }

  async setFiles(selector, paths) {
    const input = await this.#page.$(selector);
    await input.uploadFile(...paths);
  }

  async screenshot(path) {
    writeFileSync(path, await this.#page.screenshot({type: 'png'}));
  }

  async close() {
    await this.#context.close();
  }
}

async function launchFirefox() {
  const browser = await puppeteer.launch({
    browser: 'firefox', protocol: 'webDriverBiDi', executablePath: FIREFOX, headless: true, timeout: TIMEOUT,
    extraPrefsFirefox: {'app.update.enabled': false, 'browser.safebrowsing.malware.enabled': false,
                        'browser.safebrowsing.phishing.enabled': false, 'network.captive-portal-service.enabled': false},
  });
  const version = (await browser.version()).replace(/^firefox\//i, '');
  return {
    engine: 'firefox', name: 'Firefox', version,
    openPage: (url) => FirefoxPage.open(browser, url),
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// WebKit: selenium-webdriver talking to WebKitWebDriver on Xvfb. WebKitWebDriver holds one session
// at a time, so the browser is one window and a new page is a new load in it (the page keeps
// nothing in storage, so nothing leaks from one load to the next).

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      server.close(() => ok(port));
    });
  });
}

/** Starts Xvfb on the first free display (it writes the number to fd 3). */
async function startXvfb() {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'],
                     {stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: true});
  let stderr = '';
  xvfb.stderr.on('data', (d) => (stderr += d));
  const display = await new Promise((ok, fail) => {
    let out = '';
    xvfb.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(`:${out.trim()}`);
    });
    xvfb.once('exit', (code) => fail(new Error(`Xvfb exited (${code}): ${stderr}`)));
    xvfb.once('error', fail);
  });
  return {xvfb, display};
}

async function waitForServer(url, child) {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${WEBDRIVER} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/status`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${WEBDRIVER} did not answer on ${url}`);
}

class WebKitPage extends Page {
  #driver;

  constructor(driver) {
    super();
    this.#driver = driver;
  }

  navigate(url) {
    return this.#driver.get(url);
  }

  evaluate(fn, ...args) {
    // WebDriver awaits a returned promise; arguments cross as JSON.
    return this.#driver.executeScript(`return (${fn}).apply(null, arguments);`, ...args);
  }

  engineProblems() {
    return [];
  }

  #find(selector) {
    return this.#driver.findElement(By.css(selector));
  }

  async click(selector) {
    await (await this.#find(selector)).click();
  }

  async keys(selector, text, enter) {
    await (await this.#find(selector)).sendKeys(text, ...(enter ? [Key.ENTER] : []));
  }

  async press(selector, key) {
    await (await this.#find(selector)).sendKeys(Key[key.toUpperCase()]);
  }

  async setFiles(selector, paths) {
    await (await this.#find(selector)).sendKeys(paths.join('\n'));
  }

  async screenshot(path) {
    // WebKitGTK snapshots what it last painted: let a scroll or a change reach the screen first.
    await this.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    writeFileSync(path, Buffer.from(await this.#driver.takeScreenshot(), 'base64'));
  }

  async close() {
    this.past = [];
    await this.#driver.get('about:blank');
  }
}

async function launchWebKit({env = {}} = {}) {
  const {xvfb, display} = await startXvfb();
  const port = await freePort();
  // In a process group of its own, so stopping it stops MiniBrowser and its web processes too.
  // WebKitGTK takes the reader's language from LANG, and a C locale is no language at all
  // (navigator.language "C", numbers without grouping): the reader here reads en-US, as Chromium
  // and Firefox assume. GTK warns that libc lacks that locale; the warning is dropped.
  // No accelerated compositing: on Xvfb its ThreadedCompositor draws with Mesa's software GL
  // (swrast_dri.so), which crashed the web process in one run of 29 November 2026 ("WebProcess
  // CRASHED", a general protection fault in swrast_dri.so); the page does not depend on it.
  const webdriver = spawn(WEBDRIVER, [`--port=${port}`, '--host=127.0.0.1'],
                          {env: {...process.env, DISPLAY: display, LANG: 'en_US.UTF-8',
                                 WEBKIT_DISABLE_COMPOSITING_MODE: '1', ...env},
                           stdio: ['ignore', 'ignore', 'pipe'], detached: true});
  webdriver.stderr.setEncoding('utf8');
  webdriver.stderr.on('data', (text) => {
    const kept = text.replace(/\n?\(process:\d+\): Gtk-WARNING[^\n]*Locale not supported[^\n]*\n\s*Using the fallback 'C' locale\.\n?/g, '');
    if (kept.trim()) process.stderr.write(kept);
  });
  const stop = () => {
    for (const child of [webdriver, xvfb]) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    process.off('exit', stop);
  };
  process.on('exit', stop);  // a test file that dies early leaves no browser behind
  let driver;
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForServer(url, webdriver);
    // usingServer: Selenium Manager is never asked for a driver or a browser.
    driver = await new Builder().usingServer(url).withCapabilities({
      'browserName': 'MiniBrowser',
      'webkitgtk:browserOptions': {binary: MINIBROWSER, args: ['--automation']},
    }).build();
    await driver.manage().setTimeouts({script: TIMEOUT, pageLoad: TIMEOUT});
    // The window's size is the viewport plus MiniBrowser's frame: size it so the viewport is VIEWPORT.
    const window = driver.manage().window();
    await window.setRect({x: 0, y: 0, ...VIEWPORT});
    const [innerW, innerH] = await driver.executeScript('return [innerWidth, innerHeight]');
    await window.setRect({width: 2 * VIEWPORT.width - innerW, height: 2 * VIEWPORT.height - innerH});
  } catch (e) {
    await driver?.quit().catch(() => {});
    stop();
    throw e;
  }
  const version = (await driver.getCapabilities()).get('browserVersion');
  let busy = false;
  return {
    engine: 'webkit', name: 'WebKit', version: `WebKitGTK ${version}`,
    async openPage(url) {
      if (busy) throw new Error('WebKitWebDriver holds one session: close the page first');
      busy = true;
      const page = new WebKitPage(driver);
      await page.navigate(url);
      const close = page.close.bind(page);
      page.close = async () => {
        await close();
        busy = false;
      };
      return page;
    },
    async close() {
      await driver.quit().catch(() => {});
      stop();
    },
  };
}

/**
 * Starts the engine's browser: {engine, name, version, openPage(url), close()}. `env`: more
 * environment for WebKit's processes (JSC_<option> sets a JavaScriptCore option).
 */
export function launch(engine, {env} = {}) {
  if (engine === 'firefox') return launchFirefox();
  if (engine === 'webkit') return launchWebKit({env});
  throw new Error(`unknown engine ${engine}; one of ${ENGINES.join(', ')}`);
}
