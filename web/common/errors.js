// The one JS error class of the page, its engine worker and the engine's JS wrapper
// (wasm/partplay-api.mjs re-exports it): PartplayError, whose `code` and `codeName` are an entry
// of the engine's one error table (engine/include/partplay/core/error_codes.h). Errors met
// outside the engine (a cancel, a malformed request, an engine that did not load or stopped) use
// the same table: their names are in it, and their numbers are read from it once it is known
// (setErrorCodes: the worker from its engine, the client from the init reply's errorCodes).
//
//   throw new PartplayError({codeName: ErrorCodeNames.NO_SOURCE, message: 'Nothing was analyzed yet.'});
//   new PartplayError(reply.error)          // the engine's answer: {code, name, message, location, field}
//   PartplayError.from(anything).toJSON()   // plain data that survives postMessage (an ErrorPayload)

/** The table's names the page and the worker raise or test for (their numbers are the engine's). */
export const ErrorCodeNames = Object.freeze({
  IO: 'io',
  BAD_OPTION: 'bad_option',
  BAD_PARTIAL: 'bad_partial',
  CANCELLED: 'cancelled',
  BAD_REQUEST: 'bad_request',
  NO_SOURCE: 'no_source',
  NO_ANALYSIS: 'no_analysis',
  ENGINE_LOAD: 'engine_load',
  ENGINE_FAILED: 'engine_failed',
});

/** The engine's table by name, once known. */
const codes = new Map();

/** Keeps the engine's error table ([{code, name, description}]). */
export function setErrorCodes(table) {
  for (const {code, name} of table ?? []) codes.set(name, code);
}

/** The engine's number of `codeName`, or null before the table is known (or for a name not in it). */
export function errorCodeOf(codeName) {
  return codes.get(codeName) ?? null;
}

export class PartplayError extends Error {
  /**
   * From an ErrorPayload {code, codeName, message, location, field} or the engine's answer
   * {code, name (the code's name), message, location, field}.
   */
  constructor({code = null, codeName, name, message, location = null, field = null, retry = null} = {}) {
    super(String(message ?? ''));
    /** The code's short name in the engine's table ('malformed_json', 'cancelled', ...). */
    this.codeName = codeName ?? (name === 'PartplayError' || name === 'AbortError' ? null : name) ?? 'internal';
    this.name = this.codeName === ErrorCodeNames.CANCELLED ? 'AbortError' : 'PartplayError';
    /** The code's number in the engine's table (the CLI's exit status for the same error). */
    this.code = code ?? errorCodeOf(this.codeName);
    /** null or {byte_offset, line, column, item_index}. */
    this.location = location ?? null;
    /** The request field the error is about, as a JSON pointer ("/avg_sizes/body"), or null. */
    this.field = field ?? null;
    /** Parts only (protocol.js analyze-part, merge): the engine's advice, 'stop' | 'id_records' | 'one_pass'. */
    this.retry = retry ?? null;
  }

  get cancelled() { return this.codeName === ErrorCodeNames.CANCELLED; }

  /** A plain object that survives postMessage (protocol.js ErrorPayload). */
  toJSON() {
    const payload = {name: this.name, code: this.code, codeName: this.codeName, message: this.message,
                     location: this.location, field: this.field};
    if (this.retry) payload.retry = this.retry;
    return payload;
  }

  /**
   * Anything thrown, as a PartplayError: itself, an ErrorPayload, a DOM AbortError (cancelled),
   * or another error (a TypeError of a malformed request: bad_request).
   */
  static from(e) {
    if (e instanceof PartplayError) return e;
    if (e && typeof e.toJSON === 'function' && 'codeName' in e) return new PartplayError(e.toJSON());
    if (e && typeof e === 'object' && e.codeName) return new PartplayError(e);
    if (e && e.name === 'AbortError') {
      return new PartplayError({codeName: ErrorCodeNames.CANCELLED, message: e.message || 'cancelled'});
    }
    return new PartplayError({codeName: ErrorCodeNames.BAD_REQUEST, message: e?.message ?? String(e)});
  }
}
