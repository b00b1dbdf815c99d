// The one answer shape of every wasm entry point, shared by the per-domain Embind files:
//   {ok: true, json?: string, ...}                          the result (JSON text when it has one)
//   {ok: false, error: {code, name, message, location, field}}   a PartplayError
// code and name come from core/error_codes.h; location is {byte_offset, line, column,
// item_index} or null. wasm/partplay-api.mjs reads every answer through one function that
// throws the error as a PartplayError and parses `json`.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "partplay/core/status.h"

namespace partplay::wasm {

inline emscripten::val LocationValue(const SourceLocation& w) {
  emscripten::val o = emscripten::val::object();
  o.set("byte_offset", static_cast<double>(w.byte_offset));
  o.set("line", static_cast<double>(w.line));
  o.set("column", static_cast<double>(w.column));
  o.set("item_index", static_cast<double>(w.item_index));
  return o;
}

// {ok: true} or {ok: false, error}.
inline emscripten::val StatusValue(const Status& s) {
  emscripten::val o = emscripten::val::object();
  o.set("ok", s.ok());
  if (!s.ok()) {
    emscripten::val e = emscripten::val::object();
    e.set("code", static_cast<int>(s.code()));
    e.set("name", std::string(ErrorCodeName(s.code())));
    e.set("message", s.message());
    e.set("location", s.where().known() ? LocationValue(s.where()) : emscripten::val::null());
    e.set("field", s.field().empty() ? emscripten::val::null() : emscripten::val(s.field()));
    o.set("error", e);
  }
  return o;
}

// {ok: true, json} or {ok: false, error}.
inline emscripten::val JsonAnswer(const StatusOr<std::string>& json) {
  if (!json.ok()) return StatusValue(json.status());
  emscripten::val o = StatusValue(Status::Ok());
  o.set("json", json.value());
  return o;
}

// {ok: true, pointer} (a heap address to write `n` bytes at) or {ok: false, error} when the
// engine has no room.
inline emscripten::val PointerAnswer(const uint8_t* at, size_t n) {
  if (at == nullptr) {
    return StatusValue(Status(ErrorCode::kOutOfMemory,
                              "no memory for " + std::to_string(n) + " more input bytes"));
  }
  emscripten::val o = StatusValue(Status::Ok());
  o.set("pointer", static_cast<double>(reinterpret_cast<uintptr_t>(at)));
  return o;
}

}  // namespace partplay::wasm
