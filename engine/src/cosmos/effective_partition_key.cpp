// Port of @azure/cosmos 4.10.1 dist/commonjs/utils/hashing/. The SDK behaviours reproduced on
// purpose (each checked against the SDK by tests/wasm/epk.test.mjs):
//
//  - V1 uses partitionKey[0] only; other components are ignored, and [] hashes as undefined.
//  - V1 cuts a string with String.prototype.substr(0, 100): 100 UTF-16 code units, not bytes or
//    code points. A cut between the halves of a surrogate pair leaves a lone high surrogate,
//    which TextEncoder writes as U+FFFD (EF BF BD).
//  - V1's binary string encoding (encoding/string.js) tests `payload.length <= 100` on the
//    already cut string, so it always takes the "short string" branch: every UTF-8 byte of the
//    cut string (up to 300) plus one, then a 0x00 terminator — never the 101-byte cap.
//  - The number encoding (encoding/number.js) skips its final byte when it is 0x00 (it writes
//    a byte only when its hex is not "00"); that happens when the 64-bit payload's low 56 bits
//    are all zero: 0, -0, ±2, ±131072 and every ±2^(16k+1) (k from -63 to 63).
//  - Numbers hash their IEEE-754 bits as JS DataView writes them: -0 differs from 0, and NaN is
//    the canonical 0x7FF8000000000000.
//  - V2 with no components hashes zero bytes (32 "0"s); MultiHash of [] is "".
#include "partplay/cosmos/effective_partition_key.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/hex.h"
#include "core/murmur_hash3.h"
#include "partplay/core/utf8.h"
#include "partplay/core/json_diagnostics.h"

namespace partplay {
namespace {

namespace od = simdjson::ondemand;

constexpr size_t kV1MaxStringUnits = 100;  // UTF-16 code units, as JS String.length counts
constexpr uint8_t kStringTerminatorV2 = 0xFF;  // BytePrefix.Infinity
constexpr uint8_t kStringTerminatorV1 = 0x00;  // BytePrefix.Undefined

// The length of the valid UTF-8 sequence at s[i] and its code point, or 0 when invalid
// (overlong forms, surrogates and values above U+10FFFF are invalid, as in RFC 3629).
size_t DecodeUtf8(std::string_view s, size_t i, uint32_t& cp) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  auto cont = [&](size_t k) { return k < s.size() && (byte(k) & 0xC0) == 0x80; };
  uint8_t b0 = byte(i);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    if (!cont(i + 1)) return 0;
    cp = (uint32_t{b0} & 0x1F) << 6 | (byte(i + 1) & 0x3F);
    return 2;
  }
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    cp = (uint32_t{b0} & 0x0F) << 12 | (uint32_t{byte(i + 1)} & 0x3F) << 6 | (byte(i + 2) & 0x3F);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    cp = (uint32_t{b0} & 0x07) << 18 | (uint32_t{byte(i + 1)} & 0x3F) << 12 |
         (uint32_t{byte(i + 2)} & 0x3F) << 6 | (byte(i + 3) & 0x3F);
    if (cp < 0x10000 || cp > 0x10FFFF) return 0;
    return 4;
  }
  return 0;
}

Status InvalidUtf8(size_t offset) {
  return Status(ErrorCode::kInvalidUtf8,
                fmt::format("a string key component is not valid UTF-8 (byte {})", offset));
}

Status ValidateUtf8(std::string_view s) {
  uint32_t cp;
  size_t i = SkipAsciiWords(s, 0);
  while (i < s.size()) {
    size_t n = DecodeUtf8(s, i, cp);
    if (n == 0) return InvalidUtf8(i);
    i += n;
  }
  return Status::Ok();
}

// TextEncoder().encode(s.substr(0, max_units)) for the JS string whose UTF-8 form is `s`.
StatusOr<std::string> CutToUtf16Units(std::string_view s, size_t max_units) {
  std::string out;
  size_t units = 0;
  uint32_t cp;
  for (size_t i = 0; i < s.size();) {
    size_t n = DecodeUtf8(s, i, cp);
    if (n == 0) return InvalidUtf8(i);
    size_t width = cp >= 0x10000 ? 2 : 1;
    if (units + width > max_units) {
      // Only the high surrogate fits: a lone surrogate, which TextEncoder writes as U+FFFD.
      if (units < max_units) out += "\xEF\xBF\xBD";
      break;
    }
    out.append(s.substr(i, n));
    units += width;
    i += n;
  }
  return out;
}

uint64_t DoubleBits(double d) {
  if (std::isnan(d)) return 0x7FF8000000000000ull;  // DataView.setFloat64(NaN)
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return bits;
}

void AppendDoubleLittleEndian(double d, std::string& out) {
  uint64_t bits = DoubleBits(d);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(bits >> (8 * i)));
}

// encoding/number.js writeNumberForBinaryEncodingBigInt: the order-preserving 64-bit form of the
// double, its first byte whole, then 7 bits per byte with the low bit set as "more follows",
// the last byte with it clear. The SDK drops that last byte when it is 0x00.
void AppendNumberBinaryEncoding(double d, std::string& out) {
  constexpr uint64_t kSign = 0x8000000000000000ull;
  uint64_t raw = DoubleBits(d);
  uint64_t payload = raw < kSign ? raw ^ kSign : ~raw + 1;
  out.push_back(static_cast<char>(static_cast<uint8_t>(KeyKind::kNumber)));
  out.push_back(static_cast<char>(payload >> 56));
  payload <<= 8;
  uint8_t byte_to_write = 0;
  bool first = true;
  do {
    if (!first) out.push_back(static_cast<char>(byte_to_write));  // odd, never 0x00
    first = false;
    byte_to_write = static_cast<uint8_t>(payload >> 56) | 0x01;
    payload <<= 7;
  } while (payload != 0);
  uint8_t last = byte_to_write & 0xFE;
  if (last != 0) out.push_back(static_cast<char>(last));
}

// v1.js: the EPK bytes (the hash as a binary-encoded number, then the encoded first component)
// appended to `out`.
Status HashV1Bytes(const PartitionKey& key, std::string& out) {
  KeyComponent undefined;
  const KeyComponent& c = key.components.empty() ? undefined : key.components[0];
  const char marker = static_cast<char>(static_cast<uint8_t>(c.kind));
  std::string to_hash;  // prefixKeyByType
  std::string encoded;  // encodeByType
  switch (c.kind) {
    case KeyKind::kUndefined:
    case KeyKind::kNull:
    case KeyKind::kFalse:
    case KeyKind::kTrue:
      to_hash.push_back(marker);
      encoded.push_back(marker);
      break;
    case KeyKind::kNumber:
      to_hash.push_back(marker);
      AppendDoubleLittleEndian(c.number, to_hash);
      AppendNumberBinaryEncoding(c.number, encoded);
      break;
    case KeyKind::kString: {
      // The whole string must be UTF-8 (a JS string always encodes), not only the part kept.
      PARTPLAY_RETURN_IF_ERROR(ValidateUtf8(c.text));
      PARTPLAY_ASSIGN_OR_RETURN(std::string cut, CutToUtf16Units(c.text, kV1MaxStringUnits));
      to_hash.push_back(marker);
      to_hash += cut;
      to_hash.push_back(static_cast<char>(kStringTerminatorV1));
      encoded.push_back(marker);
      for (char ch : cut) {
        uint8_t b = static_cast<uint8_t>(ch);
        encoded.push_back(static_cast<char>(b < 0xFF ? b + 1 : b));
      }
      encoded.push_back(static_cast<char>(kStringTerminatorV1));
      break;
    }
    default:
      return Status(ErrorCode::kInternal, "unknown key component kind");
  }
  uint32_t hash = internal::MurmurHash3X86_32(to_hash);
  AppendNumberBinaryEncoding(static_cast<double>(hash), out);
  out += encoded;
  return Status::Ok();
}

// The EPK bytes of a hash: its 16 bytes reversed, the top two bits of the first cleared.
void EpkOfHash(std::string_view to_hash, char out[16]) {
  uint8_t bytes[16];
  internal::MurmurHash3X64_128(to_hash).Bytes(bytes);
  for (int i = 0; i < 16; ++i) out[i] = static_cast<char>(bytes[15 - i]);
  out[0] = static_cast<char>(static_cast<uint8_t>(out[0]) & 0x3F);
}

// One component's bytes in a version 2 hash (v2.js prefixKeyByType): its kind, a number's 8
// little-endian bytes, a string's bytes (checked to be UTF-8) and the terminator.
Status AppendV2Component(KeyKind kind, double number, std::string_view text,
                         std::string& to_hash) {
  to_hash.push_back(static_cast<char>(static_cast<uint8_t>(kind)));
  switch (kind) {
    case KeyKind::kUndefined:
    case KeyKind::kNull:
    case KeyKind::kFalse:
    case KeyKind::kTrue:
      return Status::Ok();
    case KeyKind::kNumber:
      AppendDoubleLittleEndian(number, to_hash);
      return Status::Ok();
    case KeyKind::kString:
      PARTPLAY_RETURN_IF_ERROR(ValidateUtf8(text));
      to_hash += text;
      to_hash.push_back(static_cast<char>(kStringTerminatorV2));
      return Status::Ok();
    default:
      return Status(ErrorCode::kInternal, "unknown key component kind");
  }
}

// The components [begin, end) hashed the version 2 way: the 16 EPK bytes appended to `out`,
// `to_hash` the reused buffer of the bytes hashed.
Status HashV2Bytes(const KeyComponent* begin, const KeyComponent* end, std::string& to_hash,
                   std::string& out) {
  to_hash.clear();
  for (const KeyComponent* c = begin; c != end; ++c) {
    PARTPLAY_RETURN_IF_ERROR(AppendV2Component(c->kind, c->number, c->text, to_hash));
  }
  char epk[16];
  EpkOfHash(to_hash, epk);
  out.append(epk, 16);
  return Status::Ok();
}

Status NotAKeyValue(std::string_view what) {
  return Status(ErrorCode::kBadOption,
                fmt::format("{} is not a partition key value (a string, number, true, false, "
                            "null, or {{}} for undefined)",
                            what));
}

Status ComponentFromJson(od::value value, KeyComponent& out) {
  od::json_type type;
  if (auto e = value.type().get(type)) return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
  switch (type) {
    case od::json_type::string: {
      std::string_view text;
      if (auto e = value.get_string().get(text)) {
        return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
      }
      out = KeyComponent::String(text);
      return Status::Ok();
    }
    case od::json_type::number: {
      std::string_view token = value.raw_json_token();
      double d = 0;
      if (value.get_double().get(d)) {
        while (!token.empty() && (token.back() == ' ' || token.back() == '\n' ||
                                  token.back() == '\r' || token.back() == '\t')) {
          token.remove_suffix(1);
        }
        return Status(ErrorCode::kBadOption,
                      fmt::format("the number {} is beyond the range of a double", token));
      }
      out = KeyComponent{KeyKind::kNumber, d, {}};  // -0 kept, as JSON.parse keeps it
      return Status::Ok();
    }
    case od::json_type::boolean: {
      bool b = false;
      if (auto e = value.get_bool().get(b)) {
        return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
      }
      out = KeyComponent::Bool(b);
      return Status::Ok();
    }
    case od::json_type::null: {
      bool is_null = false;
      if (value.is_null().get(is_null) || !is_null) {
        return Status(ErrorCode::kMalformedJson, "bad literal");
      }
      out = KeyComponent::Null();
      return Status::Ok();
    }
    case od::json_type::object: {
      od::object object;
      size_t fields = 0;
      if (value.get_object().get(object) || object.count_fields().get(fields)) {
        return Status(ErrorCode::kMalformedJson, "bad object");
      }
      if (fields != 0) return NotAKeyValue("a non-empty object");
      out = KeyComponent::Undefined();
      return Status::Ok();
    }
    case od::json_type::array:
      return NotAKeyValue("an array inside the key");
  }
  return Status(ErrorCode::kMalformedJson, "unknown value type");
}

// Checks `json` is one JSON value (and nothing after it); returns where the value starts.
StatusOr<size_t> CheckOneValue(std::string_view json) {
  JsonDiagnosis d = DiagnoseJsonValue(json);
  if (d.found) {
    SourceLocation where;
    where.byte_offset = static_cast<int64_t>(d.offset);
    return Status(d.code, d.message, where);
  }
  for (size_t i = d.value_end; i < json.size(); ++i) {
    char c = json[i];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      SourceLocation where;
      where.byte_offset = static_cast<int64_t>(i);
      return Status(ErrorCode::kMalformedJson, "unexpected text after the key's JSON value", where);
    }
  }
  size_t start = 0;
  while (json[start] == ' ' || json[start] == '\n' || json[start] == '\r' || json[start] == '\t') {
    ++start;
  }
  return start;
}

// The components of a JSON array already checked by CheckOneValue.
StatusOr<PartitionKey> ComponentsOfArray(std::string_view array_json) {
  simdjson::padded_string padded(array_json);
  od::parser parser;
  od::document doc;
  if (auto e = parser.iterate(padded).get(doc)) {
    return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
  }
  od::array array;
  if (auto e = doc.get_array().get(array)) {
    return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
  }
  PartitionKey key;
  for (auto element : array) {
    od::value value;
    if (auto e = std::move(element).get(value)) {
      return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
    }
    KeyComponent component;
    PARTPLAY_RETURN_IF_ERROR(ComponentFromJson(value, component));
    key.components.push_back(std::move(component));
  }
  return key;
}

}  // namespace

Status EffectivePartitionKeyInto(const PartitionKey& key, PartitionKeyHashVersion version,
                                 EpkForm form, std::string& out) {
  // Per thread, so that a caller hashing every partition allocates nothing per key. (The wasm
  // modules run one thread, and their bulk memory without atomics links no thread_local.)
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  static std::string to_hash, bytes;
#else
  thread_local std::string to_hash, bytes;
#endif
  out.clear();
  bytes.clear();
  switch (version) {
    case PartitionKeyHashVersion::kV1:
      PARTPLAY_RETURN_IF_ERROR(HashV1Bytes(key, bytes));
      break;
    case PartitionKeyHashVersion::kV2: {
      const KeyComponent* begin = key.components.data();
      PARTPLAY_RETURN_IF_ERROR(HashV2Bytes(begin, begin + key.components.size(), to_hash, bytes));
      break;
    }
    case PartitionKeyHashVersion::kMultiHash:
      for (const KeyComponent& c : key.components) {
        PARTPLAY_RETURN_IF_ERROR(HashV2Bytes(&c, &c + 1, to_hash, bytes));
      }
      break;
    default:
      return Status(ErrorCode::kBadOption, "unknown partition key hash version");
  }
  if (form == EpkForm::kHex) {
    internal::AppendHex(bytes, out, internal::HexCase::kUpper);
  } else {
    out = bytes;
  }
  return Status::Ok();
}

Status EffectivePartitionKeyV2FromCanonical(std::string_view canonical, std::string& scratch,
                                            char out[16]) {
  // The bytes HashV2Bytes hashes for the decoded key, read from the canonical bytes.
  scratch.clear();
  KeyKind kind;
  double number;
  std::string_view text;
  for (size_t at = 0; at < canonical.size();) {
    if (!ReadCanonicalComponent(canonical, at, kind, number, text)) {
      return Status(ErrorCode::kInternal, "canonical key bytes that end inside a component");
    }
    PARTPLAY_RETURN_IF_ERROR(AppendV2Component(kind, number, text, scratch));
  }
  EpkOfHash(scratch, out);
  return Status::Ok();
}

StatusOr<std::string> EffectivePartitionKey(const PartitionKey& key,
                                            PartitionKeyHashVersion version) {
  std::string epk;
  PARTPLAY_RETURN_IF_ERROR(EffectivePartitionKeyInto(key, version, EpkForm::kHex, epk));
  return epk;
}

StatusOr<PartitionKeyHashVersion> ParsePartitionKeyHashVersion(std::string_view text) {
  std::string lower;
  for (char c : text) lower.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  if (lower == "1" || lower == "v1") return PartitionKeyHashVersion::kV1;
  if (lower == "2" || lower == "v2") return PartitionKeyHashVersion::kV2;
  if (lower == "multihash") return PartitionKeyHashVersion::kMultiHash;
  return Status(ErrorCode::kBadOption,
                fmt::format("unknown partition key hash version '{}' (1, 2 or multihash)", text));
}

StatusOr<PartitionKey> ParsePartitionKeyJson(std::string_view json) {
  PARTPLAY_ASSIGN_OR_RETURN(size_t start, CheckOneValue(json));
  if (json[start] == '[') return ComponentsOfArray(json);
  // One value alone: read it as the only element of an array (it is checked to be one value).
  return ComponentsOfArray(fmt::format("[{}]", json));
}

StatusOr<KeyComponent> ParseKeyComponentLiteral(std::string_view literal) {
  if (literal == "undefined") return KeyComponent::Undefined();
  PARTPLAY_ASSIGN_OR_RETURN(size_t start, CheckOneValue(literal));
  if (literal[start] == '[') return NotAKeyValue("an array");
  PARTPLAY_ASSIGN_OR_RETURN(PartitionKey key, ComponentsOfArray(fmt::format("[{}]", literal)));
  if (key.components.size() != 1) return Status(ErrorCode::kInternal, "expected one value");
  return std::move(key.components[0]);
}

}  // namespace partplay
