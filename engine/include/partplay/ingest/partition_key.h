// A partition key value: one component per key path, each typed as Cosmos DB types it
// (undefined, null, false, true, number, string — the order and the markers 0x00, 0x01, 0x02,
// 0x03, 0x05, 0x08 are the ones the Cosmos DB effective-partition-key encoding uses, so the EPK
// hashing of later modules reads the same components).
//
// Equality is the database's: the string "5" and the number 5 differ, while numbers compare as
// IEEE-754 doubles (5 and 5.0 are one key; -0 and 0 are one key). The canonical encoding below is
// the grouping identity; XXH3 of it is the grouping hash. The exact value is kept for display.
//
//   PartitionKey key;
//   key.components.push_back(KeyComponent::String("redmond"));
//   std::string json = key.ToJson();  // ["redmond"]
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace partplay {

enum class KeyKind : uint8_t {
  kUndefined = 0x00,  // the item has no value at the path
  kNull = 0x01,
  kFalse = 0x02,
  kTrue = 0x03,
  kNumber = 0x05,
  kString = 0x08,
};

struct KeyComponent {
  KeyKind kind = KeyKind::kUndefined;
  double number = 0;  // kNumber
  std::string text;   // kString: the unescaped UTF-8 value

  static KeyComponent Undefined() { return {}; }
  static KeyComponent Null() { return {KeyKind::kNull, 0, {}}; }
  static KeyComponent Bool(bool b) { return {b ? KeyKind::kTrue : KeyKind::kFalse, 0, {}}; }
  static KeyComponent Number(double d) { return {KeyKind::kNumber, d == 0 ? 0.0 : d, {}}; }
  static KeyComponent String(std::string_view s) { return {KeyKind::kString, 0, std::string(s)}; }

  // The JSON form: "text", 5, true, null, and {} for undefined (as the Cosmos DB SDKs write it).
  std::string ToJson() const;
  void AppendJson(std::string& out) const;  // ToJson() appended to out
  bool operator==(const KeyComponent& other) const;
};

struct PartitionKey {
  std::vector<KeyComponent> components;

  // Unambiguous bytes: per component its kind byte, then 8 little-endian double bytes (number)
  // or a 4-byte little-endian length and the UTF-8 bytes (string).
  std::string CanonicalBytes() const;
  static PartitionKey FromCanonicalBytes(std::string_view bytes);
  // The same into this key, reusing its components' memory (for loops over many keys).
  void AssignCanonicalBytes(std::string_view bytes);
  // XXH3-64 of CanonicalBytes(): the grouping hash.
  uint64_t Hash() const;
  // A JSON array with one value per component.
  std::string ToJson() const;
  void AppendJson(std::string& out) const;  // ToJson() appended to out
  bool operator==(const PartitionKey& other) const { return components == other.components; }
};

// Total order used to break ties when sorting: by kind marker, then numbers numerically, strings
// by unsigned bytes, component by component.
int CompareKeys(const PartitionKey& a, const PartitionKey& b);

// CompareKeys over canonical bytes (CanonicalBytes()), without decoding them.
int CompareCanonicalKeys(std::string_view a, std::string_view b);
// The bytes of a key's values as Cosmos DB counts them against its key-size limit: a string's
// UTF-8 bytes, 8 per number, 1 per null or boolean, none for undefined.
uint64_t CanonicalValueBytes(std::string_view canonical);

// Appends one component's canonical bytes to `out` (what CanonicalBytes() concatenates).
void AppendCanonical(const KeyComponent& component, std::string& out);
// The same from the parts (`number` for kNumber, `text` for kString), without building a
// KeyComponent: the analyzer encodes every item's key this way.
void AppendCanonical(KeyKind kind, double number, std::string_view text, std::string& out);
uint64_t HashCanonical(std::string_view canonical_bytes);
// Reads the component of canonical bytes that starts at `at` and moves `at` past it: its kind,
// `number` (kNumber; else 0) and `text` (kString, a view into `canonical`; else empty). False
// when the bytes end inside it or its kind is no KeyKind (bytes from outside the engine).
bool ReadCanonicalComponent(std::string_view canonical, size_t& at, KeyKind& kind, double& number,
                            std::string_view& text);

}  // namespace partplay
