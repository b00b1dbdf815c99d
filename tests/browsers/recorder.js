// Loaded first on every HTML page the cross-engine suite serves (tests/browsers/server.mjs):
// records what would fail a test: uncaught errors, unhandled rejections, console.error calls and
// resources that failed to load. WebKitWebDriver has no log API, so the page keeps its own record
// in window.__ppProblems and the driver reads it (tests/browsers/drivers.mjs).
(() => {
  const problems = [];
  Object.defineProperty(window, '__ppProblems', {value: problems});
  const describe = (value) => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === 'string') return value;
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  };
  window.addEventListener('error', (event) => {
    const target = event.target;
    if (target && target !== window && (target.src || target.href)) {
      problems.push(`failed to load: ${target.src || target.href}`);
    } else {
      problems.push(`pageerror: ${event.message}`);
    }
  }, true);
  window.addEventListener('unhandledrejection', (event) => problems.push(`unhandled rejection: ${describe(event.reason)}`));
  const error = console.error;
  console.error = function (...args) {
    problems.push(`console.error: ${args.map(describe).join(' ')}`);
    return error.apply(this, args);
  };
})();
