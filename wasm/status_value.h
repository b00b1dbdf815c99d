// Conversions shared by the Embind blocks: a Status as the plain JS object
// {ok, error: {code, name, message, location}} that wasm/partplay-api.mjs turns into a thrown
// PartplayError.
#pragma once

#include <emscripten/val.h>

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

inline emscripten::val StatusValue(const Status& s) {
  emscripten::val o = emscripten::val::object();
  o.set("ok", s.ok());
  if (!s.ok()) {
    emscripten::val e = emscripten::val::object();
    e.set("code", static_cast<int>(s.code()));
    e.set("name", std::string(ErrorCodeName(s.code())));
    e.set("message", s.message());
    e.set("location", s.where().known() ? LocationValue(s.where()) : emscripten::val::null());
    o.set("error", e);
  }
  return o;
}

}  // namespace partplay::wasm
