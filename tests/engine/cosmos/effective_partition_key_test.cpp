// The effective partition key against fixed vectors computed with the Cosmos DB JavaScript SDK
// (@azure/cosmos 4.10.1: hashPartitionKey from dist/commonjs/utils/hashing/hash.js, with
// {kind: "Hash", version: 1}, {kind: "Hash", version: 2} and {kind: "MultiHash"}), the SDK quirks
// the port reproduces, and the JSON reading of keys used by the CLI and the wasm module.
// tests/wasm/epk.test.mjs compares tens of thousands of random keys with the SDK itself.
#include "partplay/cosmos/effective_partition_key.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace partplay {
namespace {

using namespace std::string_view_literals;
using namespace std::string_literals;
using V = PartitionKeyHashVersion;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

KeyComponent S(std::string_view text) { return KeyComponent::String(text); }
// The double exactly as given (KeyComponent::Number would turn -0 into 0).
KeyComponent N(double d) { return KeyComponent{KeyKind::kNumber, d, {}}; }

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

PartitionKey Key(std::vector<KeyComponent> components) {
  PartitionKey key;
  key.components = std::move(components);
  return key;
}

std::string Epk(const PartitionKey& key, V version) {
  StatusOr<std::string> epk = EffectivePartitionKey(key, version);
  EXPECT_TRUE(epk.ok()) << epk.status().ToString();
  return epk.ok() ? epk.value() : std::string();
}

struct EpkVector {
  const char* name;
  std::vector<KeyComponent> components;
  V version;
  const char* epk;
};

// Generated from the SDK; names are <version>_<key>.
std::vector<EpkVector> SdkVectors() {
  return {
    {"V1_EmptyString", {S(""sv)}, V::kV1,
     "05C1CF33970FF80800"},
    {"V1_Redmond", {S("redmond"sv)}, V::kV1,
     "05C1EFE313830C087366656E706F6500"},
    {"V1_AsciiSentence", {S("The quick brown fox"sv)}, V::kV1,
     "05C1EF9D41C33A085569662172766A646C21637370786F2167707900"},
    {"V1_Tokyo", {S("東京"sv)}, V::kV1,
     "05C1E193A3417208E79EB2E5BBAD00"},
    {"V1_Emoji", {S("😀"sv)}, V::kV1,
     "05C1814D5F9C08F1A0998100"},
    {"V1_MixedUnicode", {S("aé東😀z"sv)}, V::kV1,
     "05C1B9FDE337700862C4AAE79EB2F1A099817B00"},
    {"V1_NulCharacter", {S("a\x00" "b"sv)}, V::kV1,
     "05C1E3353F57460862016300"},
    {"V1_Ascii99", {S(Repeat("a", 99))}, V::kV1,
     "05C1E9CD098BB2086262626262626262626262626262626262626262626262626262626262626262"
     "62626262626262626262626262626262626262626262626262626262626262626262626262626262"
     "62626262626262626262626262626262626262626262626262626200"},
    {"V1_Ascii100", {S(Repeat("a", 100))}, V::kV1,
     "05C1EB5921F706086262626262626262626262626262626262626262626262626262626262626262"
     "62626262626262626262626262626262626262626262626262626262626262626262626262626262"
     "6262626262626262626262626262626262626262626262626262626200"},
    {"V1_Ascii101", {S(Repeat("a", 101))}, V::kV1,
     "05C1EB5921F706086262626262626262626262626262626262626262626262626262626262626262"
     "62626262626262626262626262626262626262626262626262626262626262626262626262626262"
     "6262626262626262626262626262626262626262626262626262626200"},
    {"V1_Digits2048", {S(Repeat("0123456789abcdef", 128))}, V::kV1,
     "05C1E92B4DE120083132333435363738393A6263646566673132333435363738393A626364656667"
     "3132333435363738393A6263646566673132333435363738393A6263646566673132333435363738"
     "393A6263646566673132333435363738393A6263646566673132333400"},
    {"V1_Ascii98ThenEmoji", {S(Repeat("a", 98) + "😀")}, V::kV1,
     "05C1DD87B7E74C086262626262626262626262626262626262626262626262626262626262626262"
     "62626262626262626262626262626262626262626262626262626262626262626262626262626262"
     "6262626262626262626262626262626262626262626262626262F1A0998100"},
    {"V1_Ascii99ThenEmojiCutInHalf", {S(Repeat("a", 99) + "😀")}, V::kV1,
     "05C1E153DB4558086262626262626262626262626262626262626262626262626262626262626262"
     "62626262626262626262626262626262626262626262626262626262626262626262626262626262"
     "626262626262626262626262626262626262626262626262626262F0C0BE00"},
    {"V1_Tokyo50", {S(Repeat("東京", 50))}, V::kV1,
     "05C1A52BD9B3C008E79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79E"
     "B2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBAD"
     "E79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5"
     "BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79E"
     "B2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBAD"
     "E79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5"
     "BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79E"
     "B2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBAD00"},
    {"V1_Tokyo51", {S(Repeat("東京", 51))}, V::kV1,
     "05C1A52BD9B3C008E79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79E"
     "B2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBAD"
     "E79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5"
     "BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79E"
     "B2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBAD"
     "E79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5"
     "BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79E"
     "B2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBADE79EB2E5BBAD00"},
    {"V1_Emoji60", {S(Repeat("😀", 60))}, V::kV1,
     "05C1DDEBD72DF008F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981"
     "F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981"
     "F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981"
     "F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981"
     "F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981F1A09981"
     "F1A09981F1A0998100"},
    {"V1_Zero", {N(0.0)}, V::kV1,
     "05C1BF6DA115600580"},
    {"V1_NegativeZero", {N(-0.0)}, V::kV1,
     "05C1E703ED99A00580"},
    {"V1_One", {N(1.0)}, V::kV1,
     "05C1ED172B6B2605BFF0"},
    {"V1_MinusOne", {N(-1.0)}, V::kV1,
     "05C1D1A5BDDF9C054010"},
    {"V1_Five", {N(5.0)}, V::kV1,
     "05C1D9C1C5517C05C014"},
    {"V1_FivePointFive", {N(5.5)}, V::kV1,
     "05C1D7A771716C05C016"},
    {"V1_MinusFivePointFive", {N(-5.5)}, V::kV1,
     "05C1DD6DDFADE8053FEA"},
    {"V1_Two", {N(2.0)}, V::kV1,
     "05C1D93569113805C0"},
    {"V1_MinusTwo", {N(-2.0)}, V::kV1,
     "05C1E12D450BCC0540"},
    {"V1_PowerOfTwo17", {N(131072.0)}, V::kV1,
     "05C1AB2187CE05C1"},
    {"V1_OneTenth", {N(0.1)}, V::kV1,
     "05C1D92733D70405BFB9CD673399CD6734"},
    {"V1_Pi", {N(3.141592653589793)}, V::kV1,
     "05C1B1034D7D7005C009917F6B4521B530"},
    {"V1_Huge", {N(1e+308)}, V::kV1,
     "05C145CFAE05FFE1E73D715F5F2340"},
    {"V1_MinusHuge", {N(-1e+308)}, V::kV1,
     "05C1A16DC1774005001F19C38FA1A1DDC0"},
    {"V1_MaxDouble", {N(1.7976931348623157e+308)}, V::kV1,
     "05C1CBE367C53005FFEFFFFFFFFFFFFFFE"},
    {"V1_TinyDenormal", {N(5e-324)}, V::kV1,
     "05C1E5C91F4D3005800101010101010102"},
    {"V1_MinNormal", {N(2.2250738585072014e-308)}, V::kV1,
     "05C1E9E33D1906058010"},
    {"V1_TwoTo53", {N(9007199254740992.0)}, V::kV1,
     "05C1E53167392405C340"},
    {"V1_TwoTo53Plus2", {N(9007199254740994.0)}, V::kV1,
     "05C1E1EF6B6D3205C34101010101010102"},
    {"V1_TwoTo64", {N(18446744073709552000.0)}, V::kV1,
     "05C1D19513C9A405C3F0"},
    {"V1_TenTo21", {N(1e+21)}, V::kV1,
     "05C1E3013BEB6E05C44B8DB99B6F17BDA0"},
    {"V1_MinusMaxSafeInteger", {N(-9007199254740991.0)}, V::kV1,
     "05C1DF1FF7D550053CC101010101010102"},
    {"V1_Infinity", {N(kInf)}, V::kV1,
     "05C1EB2FC33F2605FFF0"},
    {"V1_MinusInfinity", {N(-kInf)}, V::kV1,
     "05C1AF5B3731A0050010"},
    {"V1_NaN", {N(kNaN)}, V::kV1,
     "05C1C543F5A7C805FFF8"},
    {"V1_True", {KeyComponent::Bool(true)}, V::kV1,
     "05C1D7C5A903D803"},
    {"V1_False", {KeyComponent::Bool(false)}, V::kV1,
     "05C1DB857D857C02"},
    {"V1_Null", {KeyComponent::Null()}, V::kV1,
     "05C1ED45D7475601"},
    {"V1_Undefined", {KeyComponent::Undefined()}, V::kV1,
     "05C1D529E345DC00"},
    {"V1_RedmondFive", {S("redmond"sv), N(5.0)}, V::kV1,
     "05C1EFE313830C087366656E706F6500"},
    {"V1_StringTrueNull", {S("a"sv), KeyComponent::Bool(true), KeyComponent::Null()}, V::kV1,
     "05C1D78593652C086200"},
    {"V1_UndefinedThenString", {KeyComponent::Undefined(), S("x"sv)}, V::kV1,
     "05C1D529E345DC00"},
    {"V1_TokyoHalfFalse", {S("東京"sv), N(-0.5), KeyComponent::Bool(false)}, V::kV1,
     "05C1E193A3417208E79EB2E5BBAD00"},
    {"V1_ThreeStrings", {S("tenant-42"sv), S("user-7"sv), S("session-2024-01-01"sv)}, V::kV1,
     "05C1ED87230D6A0875666F626F752E353300"},
    {"V1_Empty", {}, V::kV1,
     "05C1D529E345DC00"},
    {"V2_EmptyString", {S(""sv)}, V::kV2,
     "32E9366E637A71B4E710384B2F4970A0"},
    {"V2_Redmond", {S("redmond"sv)}, V::kV2,
     "22E342F38A486A088463DFF7838A5963"},
    {"V2_AsciiSentence", {S("The quick brown fox"sv)}, V::kV2,
     "3F5DB8ABCF0F3D0B401D6323C8F2BC6A"},
    {"V2_Tokyo", {S("東京"sv)}, V::kV2,
     "3EFE77422D10BE6C08BF790B5996093E"},
    {"V2_Emoji", {S("😀"sv)}, V::kV2,
     "28D7FCB721E75FBE0DAC3D71DAB82766"},
    {"V2_MixedUnicode", {S("aé東😀z"sv)}, V::kV2,
     "387B3D3CDECC7B2A051E199604CEA77E"},
    {"V2_NulCharacter", {S("a\x00" "b"sv)}, V::kV2,
     "1B3FD025E76645CED4D34BF084ED3B74"},
    {"V2_Ascii99", {S(Repeat("a", 99))}, V::kV2,
     "3C02F609961C32AAC2B912B940D1209A"},
    {"V2_Ascii100", {S(Repeat("a", 100))}, V::kV2,
     "0DBD7D229437BB665DE6417747994D57"},
    {"V2_Ascii101", {S(Repeat("a", 101))}, V::kV2,
     "08042541D30C8BF90D7092B1519AE0BC"},
    {"V2_Digits2048", {S(Repeat("0123456789abcdef", 128))}, V::kV2,
     "02D79A73D7C08CE75E84C0CFD9556966"},
    {"V2_Ascii98ThenEmoji", {S(Repeat("a", 98) + "😀")}, V::kV2,
     "0389F16A5E7034275D2410F48EEA31D7"},
    {"V2_Ascii99ThenEmojiCutInHalf", {S(Repeat("a", 99) + "😀")}, V::kV2,
     "3DCDC7ABFC5BF49867B328ECDB14F0BF"},
    {"V2_Tokyo50", {S(Repeat("東京", 50))}, V::kV2,
     "30EC53D3437673AA8CED4D1B1BBF323F"},
    {"V2_Tokyo51", {S(Repeat("東京", 51))}, V::kV2,
     "08829E0BDFA8E58E4CDB6868F89216AE"},
    {"V2_Emoji60", {S(Repeat("😀", 60))}, V::kV2,
     "260FBD44EF1B0EDBDFC677191331C06E"},
    {"V2_Zero", {N(0.0)}, V::kV2,
     "155B95BEDAC4B1E9EC1CDC9BB0DDDE58"},
    {"V2_NegativeZero", {N(-0.0)}, V::kV2,
     "3D018BB1DF3DB27235766E81FD10406E"},
    {"V2_One", {N(1.0)}, V::kV2,
     "20CD98B339BA78A5D0CF6953B87070B0"},
    {"V2_MinusOne", {N(-1.0)}, V::kV2,
     "19938E7A936C1C5B9E3AE842BBC16839"},
    {"V2_Five", {N(5.0)}, V::kV2,
     "19C08621B135968252FB34B4CF66F811"},
    {"V2_FivePointFive", {N(5.5)}, V::kV2,
     "0E2EE47829D1AF775EEFB6540FD1D0ED"},
    {"V2_MinusFivePointFive", {N(-5.5)}, V::kV2,
     "2DFA8CD7B541DC1A816FAAEEABD25F03"},
    {"V2_Two", {N(2.0)}, V::kV2,
     "11BEC098BB8A08943F0A144281ACC26C"},
    {"V2_MinusTwo", {N(-2.0)}, V::kV2,
     "1A2458E87D7067392EDA354F785ECEC4"},
    {"V2_PowerOfTwo17", {N(131072.0)}, V::kV2,
     "170957674FF07E7400692F8D1BAA5915"},
    {"V2_OneTenth", {N(0.1)}, V::kV2,
     "21DEBA97B3AF01087F4E1F889B0A7739"},
    {"V2_Pi", {N(3.141592653589793)}, V::kV2,
     "30B7C6E2CEFFA88AC281967E06E2BB54"},
    {"V2_Huge", {N(1e+308)}, V::kV2,
     "1E0D61F83E0EBE180144F756FA5C918A"},
    {"V2_MinusHuge", {N(-1e+308)}, V::kV2,
     "193C1D0A89A67BC99C25AAA8C3753E0C"},
    {"V2_MaxDouble", {N(1.7976931348623157e+308)}, V::kV2,
     "31424D996457102634591FF245DBCC4D"},
    {"V2_TinyDenormal", {N(5e-324)}, V::kV2,
     "0E6CBA63A280927DE485DEF865800139"},
    {"V2_MinNormal", {N(2.2250738585072014e-308)}, V::kV2,
     "0E51469A75997B93343D4A00039D3E46"},
    {"V2_TwoTo53", {N(9007199254740992.0)}, V::kV2,
     "15335910D01122E3D99DA5DE569B065D"},
    {"V2_TwoTo53Plus2", {N(9007199254740994.0)}, V::kV2,
     "0412DE9E3C5F8C33828FA20B3376FE52"},
    {"V2_TwoTo64", {N(18446744073709552000.0)}, V::kV2,
     "16FBF793FF643422F773BB20E4782623"},
    {"V2_TenTo21", {N(1e+21)}, V::kV2,
     "00F95F627D6884BCDB7D661839BEB420"},
    {"V2_MinusMaxSafeInteger", {N(-9007199254740991.0)}, V::kV2,
     "2F1DA39110B7FB1FD46388C72F6BDBA2"},
    {"V2_Infinity", {N(kInf)}, V::kV2,
     "3889F7F08A8CE2A5C9829BBB1944B4FF"},
    {"V2_MinusInfinity", {N(-kInf)}, V::kV2,
     "1B63B3FB266DB3B6CD3BC79FE893CDE8"},
    {"V2_NaN", {N(kNaN)}, V::kV2,
     "3F9BC25EF982E0BBDDFAABEDAA38F81B"},
    {"V2_True", {KeyComponent::Bool(true)}, V::kV2,
     "0E711127C5B5A8E4726AC6DD306A3E59"},
    {"V2_False", {KeyComponent::Bool(false)}, V::kV2,
     "2FE1BE91E90A3439635E0E9E37361EF2"},
    {"V2_Null", {KeyComponent::Null()}, V::kV2,
     "378867E4430E67857ACE5C908374FE16"},
    {"V2_Undefined", {KeyComponent::Undefined()}, V::kV2,
     "11622DAA78F835834610ABE56EFF5CB5"},
    {"V2_RedmondFive", {S("redmond"sv), N(5.0)}, V::kV2,
     "3400298DF885202BC9C0F3B00A87B356"},
    {"V2_StringTrueNull", {S("a"sv), KeyComponent::Bool(true), KeyComponent::Null()}, V::kV2,
     "0497012894A9133D956E9F1D5A19A18B"},
    {"V2_UndefinedThenString", {KeyComponent::Undefined(), S("x"sv)}, V::kV2,
     "23C76A5A24363775AC7F9138965D2FE7"},
    {"V2_TokyoHalfFalse", {S("東京"sv), N(-0.5), KeyComponent::Bool(false)}, V::kV2,
     "2F0D68A26D7CC7CF35404D641F5AB6B3"},
    {"V2_ThreeStrings", {S("tenant-42"sv), S("user-7"sv), S("session-2024-01-01"sv)}, V::kV2,
     "27F8654FFC1FD771EAA13ED9E6416301"},
    {"V2_Empty", {}, V::kV2,
     "00000000000000000000000000000000"},
    {"MultiHash_EmptyString", {S(""sv)}, V::kMultiHash,
     "32E9366E637A71B4E710384B2F4970A0"},
    {"MultiHash_Redmond", {S("redmond"sv)}, V::kMultiHash,
     "22E342F38A486A088463DFF7838A5963"},
    {"MultiHash_AsciiSentence", {S("The quick brown fox"sv)}, V::kMultiHash,
     "3F5DB8ABCF0F3D0B401D6323C8F2BC6A"},
    {"MultiHash_Tokyo", {S("東京"sv)}, V::kMultiHash,
     "3EFE77422D10BE6C08BF790B5996093E"},
    {"MultiHash_Emoji", {S("😀"sv)}, V::kMultiHash,
     "28D7FCB721E75FBE0DAC3D71DAB82766"},
    {"MultiHash_MixedUnicode", {S("aé東😀z"sv)}, V::kMultiHash,
     "387B3D3CDECC7B2A051E199604CEA77E"},
    {"MultiHash_NulCharacter", {S("a\x00" "b"sv)}, V::kMultiHash,
     "1B3FD025E76645CED4D34BF084ED3B74"},
    {"MultiHash_Ascii99", {S(Repeat("a", 99))}, V::kMultiHash,
     "3C02F609961C32AAC2B912B940D1209A"},
    {"MultiHash_Ascii100", {S(Repeat("a", 100))}, V::kMultiHash,
     "0DBD7D229437BB665DE6417747994D57"},
    {"MultiHash_Ascii101", {S(Repeat("a", 101))}, V::kMultiHash,
     "08042541D30C8BF90D7092B1519AE0BC"},
    {"MultiHash_Digits2048", {S(Repeat("0123456789abcdef", 128))}, V::kMultiHash,
     "02D79A73D7C08CE75E84C0CFD9556966"},
    {"MultiHash_Ascii98ThenEmoji", {S(Repeat("a", 98) + "😀")}, V::kMultiHash,
     "0389F16A5E7034275D2410F48EEA31D7"},
    {"MultiHash_Ascii99ThenEmojiCutInHalf", {S(Repeat("a", 99) + "😀")}, V::kMultiHash,
     "3DCDC7ABFC5BF49867B328ECDB14F0BF"},
    {"MultiHash_Tokyo50", {S(Repeat("東京", 50))}, V::kMultiHash,
     "30EC53D3437673AA8CED4D1B1BBF323F"},
    {"MultiHash_Tokyo51", {S(Repeat("東京", 51))}, V::kMultiHash,
     "08829E0BDFA8E58E4CDB6868F89216AE"},
    {"MultiHash_Emoji60", {S(Repeat("😀", 60))}, V::kMultiHash,
     "260FBD44EF1B0EDBDFC677191331C06E"},
    {"MultiHash_Zero", {N(0.0)}, V::kMultiHash,
     "155B95BEDAC4B1E9EC1CDC9BB0DDDE58"},
    {"MultiHash_NegativeZero", {N(-0.0)}, V::kMultiHash,
     "3D018BB1DF3DB27235766E81FD10406E"},
    {"MultiHash_One", {N(1.0)}, V::kMultiHash,
     "20CD98B339BA78A5D0CF6953B87070B0"},
    {"MultiHash_MinusOne", {N(-1.0)}, V::kMultiHash,
     "19938E7A936C1C5B9E3AE842BBC16839"},
    {"MultiHash_Five", {N(5.0)}, V::kMultiHash,
     "19C08621B135968252FB34B4CF66F811"},
    {"MultiHash_FivePointFive", {N(5.5)}, V::kMultiHash,
     "0E2EE47829D1AF775EEFB6540FD1D0ED"},
    {"MultiHash_MinusFivePointFive", {N(-5.5)}, V::kMultiHash,
     "2DFA8CD7B541DC1A816FAAEEABD25F03"},
    {"MultiHash_Two", {N(2.0)}, V::kMultiHash,
     "11BEC098BB8A08943F0A144281ACC26C"},
    {"MultiHash_MinusTwo", {N(-2.0)}, V::kMultiHash,
     "1A2458E87D7067392EDA354F785ECEC4"},
    {"MultiHash_PowerOfTwo17", {N(131072.0)}, V::kMultiHash,
     "170957674FF07E7400692F8D1BAA5915"},
    {"MultiHash_OneTenth", {N(0.1)}, V::kMultiHash,
     "21DEBA97B3AF01087F4E1F889B0A7739"},
    {"MultiHash_Pi", {N(3.141592653589793)}, V::kMultiHash,
     "30B7C6E2CEFFA88AC281967E06E2BB54"},
    {"MultiHash_Huge", {N(1e+308)}, V::kMultiHash,
     "1E0D61F83E0EBE180144F756FA5C918A"},
    {"MultiHash_MinusHuge", {N(-1e+308)}, V::kMultiHash,
     "193C1D0A89A67BC99C25AAA8C3753E0C"},
    {"MultiHash_MaxDouble", {N(1.7976931348623157e+308)}, V::kMultiHash,
     "31424D996457102634591FF245DBCC4D"},
    {"MultiHash_TinyDenormal", {N(5e-324)}, V::kMultiHash,
     "0E6CBA63A280927DE485DEF865800139"},
    {"MultiHash_MinNormal", {N(2.2250738585072014e-308)}, V::kMultiHash,
     "0E51469A75997B93343D4A00039D3E46"},
    {"MultiHash_TwoTo53", {N(9007199254740992.0)}, V::kMultiHash,
     "15335910D01122E3D99DA5DE569B065D"},
    {"MultiHash_TwoTo53Plus2", {N(9007199254740994.0)}, V::kMultiHash,
     "0412DE9E3C5F8C33828FA20B3376FE52"},
    {"MultiHash_TwoTo64", {N(18446744073709552000.0)}, V::kMultiHash,
     "16FBF793FF643422F773BB20E4782623"},
    {"MultiHash_TenTo21", {N(1e+21)}, V::kMultiHash,
     "00F95F627D6884BCDB7D661839BEB420"},
    {"MultiHash_MinusMaxSafeInteger", {N(-9007199254740991.0)}, V::kMultiHash,
     "2F1DA39110B7FB1FD46388C72F6BDBA2"},
    {"MultiHash_Infinity", {N(kInf)}, V::kMultiHash,
     "3889F7F08A8CE2A5C9829BBB1944B4FF"},
    {"MultiHash_MinusInfinity", {N(-kInf)}, V::kMultiHash,
     "1B63B3FB266DB3B6CD3BC79FE893CDE8"},
    {"MultiHash_NaN", {N(kNaN)}, V::kMultiHash,
     "3F9BC25EF982E0BBDDFAABEDAA38F81B"},
    {"MultiHash_True", {KeyComponent::Bool(true)}, V::kMultiHash,
     "0E711127C5B5A8E4726AC6DD306A3E59"},
    {"MultiHash_False", {KeyComponent::Bool(false)}, V::kMultiHash,
     "2FE1BE91E90A3439635E0E9E37361EF2"},
    {"MultiHash_Null", {KeyComponent::Null()}, V::kMultiHash,
     "378867E4430E67857ACE5C908374FE16"},
    {"MultiHash_Undefined", {KeyComponent::Undefined()}, V::kMultiHash,
     "11622DAA78F835834610ABE56EFF5CB5"},
    {"MultiHash_RedmondFive", {S("redmond"sv), N(5.0)}, V::kMultiHash,
     "22E342F38A486A088463DFF7838A596319C08621B135968252FB34B4CF66F811"},
    {"MultiHash_StringTrueNull", {S("a"sv), KeyComponent::Bool(true), KeyComponent::Null()}, V::kMultiHash,
     "3A5381E1114EB8D3FCC90795045B49B70E711127C5B5A8E4726AC6DD306A3E59378867E4430E6785"
     "7ACE5C908374FE16"},
    {"MultiHash_UndefinedThenString", {KeyComponent::Undefined(), S("x"sv)}, V::kMultiHash,
     "11622DAA78F835834610ABE56EFF5CB511E3F358618BE9AA5BAFF4C7C74F0716"},
    {"MultiHash_TokyoHalfFalse", {S("東京"sv), N(-0.5), KeyComponent::Bool(false)}, V::kMultiHash,
     "3EFE77422D10BE6C08BF790B5996093E04C8191FC18308BCB37FDA5DCC5C97682FE1BE91E90A3439"
     "635E0E9E37361EF2"},
    {"MultiHash_ThreeStrings", {S("tenant-42"sv), S("user-7"sv), S("session-2024-01-01"sv)}, V::kMultiHash,
     "1D956EA8C214DED08A6749D6A42F43EB34C06593565F93B824867331A814C86E1D92C4580A908FA8"
     "77890D913EA6C425"},
    {"MultiHash_Empty", {}, V::kMultiHash,
     ""},
  };
}

void PrintTo(const EpkVector& v, std::ostream* os) { *os << v.name; }

class SdkVectorTest : public testing::TestWithParam<EpkVector> {};

TEST_P(SdkVectorTest, MatchesTheSdk) {
  const EpkVector& v = GetParam();
  EXPECT_EQ(Epk(Key(v.components), v.version), v.epk);
}

INSTANTIATE_TEST_SUITE_P(EffectivePartitionKey, SdkVectorTest, testing::ValuesIn(SdkVectors()),
                         [](const testing::TestParamInfo<EpkVector>& info) {
                           return std::string(info.param.name);
                         });

TEST(EffectivePartitionKeyTest, ShapeOfEachVersion) {
  for (const EpkVector& v : SdkVectors()) {
    SCOPED_TRACE(v.name);
    std::string epk = v.epk;
    EXPECT_EQ(epk.find_first_not_of("0123456789ABCDEF"), std::string::npos);
    if (v.version == V::kV1) {
      EXPECT_EQ(epk.substr(0, 2), "05");  // the hash, written as a number
    } else if (v.version == V::kV2) {
      ASSERT_EQ(epk.size(), 32u);
      EXPECT_LE(epk[0], '3');  // the first byte masked with 0x3F
    } else {
      ASSERT_EQ(epk.size(), 32 * v.components.size());
      for (size_t i = 0; i < epk.size(); i += 32) EXPECT_LE(epk[i], '3');
    }
  }
}

TEST(EffectivePartitionKeyTest, DocumentationExample) {
  EXPECT_EQ(Epk(Key({KeyComponent::String("redmond")}), V::kV2),
            "22E342F38A486A088463DFF7838A5963");
}

TEST(EffectivePartitionKeyTest, V1HashesOnlyTheFirstComponent) {
  std::string first = Epk(Key({S("tenant"), N(5), KeyComponent::Null()}), V::kV1);
  EXPECT_EQ(first, Epk(Key({S("tenant")}), V::kV1));
  EXPECT_EQ(Epk(Key({}), V::kV1), Epk(Key({KeyComponent::Undefined()}), V::kV1));
}

TEST(EffectivePartitionKeyTest, V1CutsStringsAt100Utf16CodeUnits) {
  // 100 and 101 ASCII characters: the same key.
  EXPECT_EQ(Epk(Key({S(Repeat("a", 100))}), V::kV1), Epk(Key({S(Repeat("a", 101))}), V::kV1));
  EXPECT_NE(Epk(Key({S(Repeat("a", 99))}), V::kV1), Epk(Key({S(Repeat("a", 100))}), V::kV1));
  // An emoji is two code units: 98 + 1 emoji fit exactly, "b" after it is cut.
  EXPECT_EQ(Epk(Key({S(Repeat("a", 98) + "😀")}), V::kV1),
            Epk(Key({S(Repeat("a", 98) + "😀b")}), V::kV1));
  // 99 + 1 emoji: the cut leaves the high surrogate alone, which TextEncoder writes as U+FFFD
  // (EF BF BD); the encoding adds 1 to each byte and ends with 0x00.
  std::string cut = Epk(Key({S(Repeat("a", 99) + "😀")}), V::kV1);
  EXPECT_EQ(cut.substr(cut.size() - 8), "F0C0BE00");
  EXPECT_EQ(cut, Epk(Key({S(Repeat("a", 99) + "\xEF\xBF\xBD")}), V::kV1));
  // 東京 is 2 code units but 6 bytes: 101 code units keep 100 (300 bytes), not 100 bytes.
  std::string tokyo = Epk(Key({S(Repeat("東京", 51))}), V::kV1);
  EXPECT_EQ(tokyo, Epk(Key({S(Repeat("東京", 50))}), V::kV1));
}

TEST(EffectivePartitionKeyTest, V1StringEncodingAlwaysTerminates) {
  // The SDK tests `payload.length <= 100` on the already cut string, so even a string of 300
  // UTF-8 bytes is written whole (each byte + 1) and terminated by 0x00.
  std::string tokyo = Epk(Key({S(Repeat("東京", 50))}), V::kV1);
  // The hash written as a number, then "08", 300 bytes and "00".
  const size_t encoded = 2 * (1 + 300 + 1);
  ASSERT_GT(tokyo.size(), encoded);
  EXPECT_EQ(tokyo.substr(tokyo.size() - encoded, 14), "08E79EB2E5BBAD");
  EXPECT_EQ(tokyo.substr(tokyo.size() - 2), "00");
}

TEST(EffectivePartitionKeyTest, V1NumberEncodingDropsAZeroLastByte) {
  // 0 encodes as 0x80 then nothing: the SDK skips the final byte when it is 0x00.
  EXPECT_EQ(Epk(Key({N(0)}), V::kV1), "05C1BF6DA115600580");
  EXPECT_EQ(Epk(Key({N(2)}), V::kV1), "05C1D93569113805C0");
  EXPECT_EQ(Epk(Key({N(-2)}), V::kV1), "05C1E12D450BCC0540");
  EXPECT_EQ(Epk(Key({N(1)}), V::kV1), "05C1ED172B6B2605BFF0");
}

TEST(EffectivePartitionKeyTest, NegativeZero) {
  // The SDK hashes the bits: -0 is not 0 ...
  EXPECT_NE(Epk(Key({N(-0.0)}), V::kV2), Epk(Key({N(0.0)}), V::kV2));
  EXPECT_EQ(Epk(Key({N(-0.0)}), V::kV2), "3D018BB1DF3DB27235766E81FD10406E");
  // ... while KeyComponent::Number, like the analyzer, makes one key of them.
  EXPECT_EQ(Epk(Key({KeyComponent::Number(-0.0)}), V::kV2), Epk(Key({N(0.0)}), V::kV2));
}

TEST(EffectivePartitionKeyTest, NaNIsCanonical) {
  double other_nan;
  uint64_t bits = 0x7FF0000000000001ull;  // a signalling NaN payload
  std::memcpy(&other_nan, &bits, 8);
  for (V v : {V::kV1, V::kV2, V::kMultiHash}) {
    EXPECT_EQ(Epk(Key({N(other_nan)}), v), Epk(Key({N(kNaN)}), v));
  }
}

TEST(EffectivePartitionKeyTest, MultiHashIsTheV2HashOfEachLevel) {
  std::vector<KeyComponent> levels = {S("tenant-42"), N(7), KeyComponent::Bool(false)};
  std::string expected;
  for (const KeyComponent& c : levels) expected += Epk(Key({c}), V::kV2);
  EXPECT_EQ(Epk(Key(levels), V::kMultiHash), expected);
  // A prefix of the key is a prefix of its EPK.
  EXPECT_EQ(Epk(Key({levels[0], levels[1]}), V::kMultiHash), expected.substr(0, 64));
  // For one component MultiHash and V2 agree.
  EXPECT_EQ(Epk(Key({levels[0]}), V::kMultiHash), Epk(Key({levels[0]}), V::kV2));
}

TEST(EffectivePartitionKeyTest, TypesDiffer) {
  // "5" and 5, "true" and true, "null" and null: different keys in every version.
  for (V v : {V::kV1, V::kV2, V::kMultiHash}) {
    EXPECT_NE(Epk(Key({S("5")}), v), Epk(Key({N(5)}), v));
    EXPECT_NE(Epk(Key({S("true")}), v), Epk(Key({KeyComponent::Bool(true)}), v));
    EXPECT_NE(Epk(Key({S("null")}), v), Epk(Key({KeyComponent::Null()}), v));
    EXPECT_NE(Epk(Key({KeyComponent::Null()}), v), Epk(Key({KeyComponent::Undefined()}), v));
  }
}

TEST(EffectivePartitionKeyTest, InvalidUtf8IsAnError) {
  for (std::string_view bad : {"\xC3"sv, "a\xFF"sv, "\xED\xA0\x80"sv /* a surrogate */,
                               "\xC0\x80"sv /* overlong */, "\xF4\x90\x80\x80"sv}) {
    for (V v : {V::kV1, V::kV2, V::kMultiHash}) {
      StatusOr<std::string> epk = EffectivePartitionKey(Key({S(bad)}), v);
      ASSERT_FALSE(epk.ok());
      EXPECT_EQ(epk.status().code(), ErrorCode::kInvalidUtf8);
    }
  }
  // Also past V1's cut at 100 code units: the whole string must be UTF-8.
  EXPECT_FALSE(EffectivePartitionKey(Key({S(Repeat("a", 100) + "\xFF")}), V::kV1).ok());
  EXPECT_FALSE(EffectivePartitionKey(Key({S(Repeat("a", 101) + "\xFF")}), V::kV1).ok());
}

TEST(EffectivePartitionKeyTest, ParseVersion) {
  EXPECT_EQ(ParsePartitionKeyHashVersion("1").value(), V::kV1);
  EXPECT_EQ(ParsePartitionKeyHashVersion("V1").value(), V::kV1);
  EXPECT_EQ(ParsePartitionKeyHashVersion("2").value(), V::kV2);
  EXPECT_EQ(ParsePartitionKeyHashVersion("v2").value(), V::kV2);
  EXPECT_EQ(ParsePartitionKeyHashVersion("MultiHash").value(), V::kMultiHash);
  EXPECT_EQ(ParsePartitionKeyHashVersion("multihash").value(), V::kMultiHash);
  for (std::string_view bad : {"", "3", "hash", "v", "multi"}) {
    StatusOr<V> v = ParsePartitionKeyHashVersion(bad);
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().code(), ErrorCode::kBadOption);
  }
}

TEST(EffectivePartitionKeyTest, ParseKeyJson) {
  StatusOr<PartitionKey> key =
      ParsePartitionKeyJson(R"( ["redmond", 5, -0.5, true, false, null, {}, "\u6771\ud83d\ude00"] )");
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(key.value(), Key({S("redmond"), N(5), N(-0.5), KeyComponent::Bool(true),
                              KeyComponent::Bool(false), KeyComponent::Null(),
                              KeyComponent::Undefined(), S("東😀")}));
  // One value alone is a one-component key; [] is the empty key.
  EXPECT_EQ(ParsePartitionKeyJson(R"("redmond")").value(), Key({S("redmond")}));
  EXPECT_EQ(ParsePartitionKeyJson("{}").value(), Key({KeyComponent::Undefined()}));
  EXPECT_EQ(ParsePartitionKeyJson("[]").value(), Key({}));
}

TEST(EffectivePartitionKeyTest, ParseNumbersAsJsonParseDoes) {
  // -0 keeps its sign; integers beyond 2^53 and 2^64 round to the nearest double.
  PartitionKey key =
      ParsePartitionKeyJson("[-0, 9007199254740993, 123456789012345678901234567890, 5e-324, "
                            "1.7976931348623157e308, 1e+21]")
          .value();
  ASSERT_EQ(key.components.size(), 6u);
  EXPECT_TRUE(std::signbit(key.components[0].number));
  EXPECT_EQ(key.components[1].number, 9007199254740992.0);
  EXPECT_EQ(key.components[2].number, 1.2345678901234568e29);
  EXPECT_EQ(key.components[3].number, 5e-324);
  EXPECT_EQ(key.components[4].number, std::numeric_limits<double>::max());
  EXPECT_EQ(key.components[5].number, 1e21);
  EXPECT_EQ(Epk(key, V::kV2), Epk(Key({N(-0.0), N(9007199254740992.0), N(1.2345678901234568e29),
                                       N(5e-324), N(std::numeric_limits<double>::max()),
                                       N(1e21)}),
                                  V::kV2));
}

TEST(EffectivePartitionKeyTest, ParseKeyJsonErrors) {
  struct Case {
    std::string_view json;
    ErrorCode code;
  };
  const Case cases[] = {
      {"", ErrorCode::kEmptyInput},
      {"[1,", ErrorCode::kTruncatedInput},
      {"[1 2]", ErrorCode::kMalformedJson},
      {"redmond", ErrorCode::kMalformedJson},
      {"[1] [2]", ErrorCode::kMalformedJson},
      {R"(["\ud800"])", ErrorCode::kMalformedJson},  // a lone surrogate
      {"[\"\xC3\"]", ErrorCode::kInvalidUtf8},
      {"[[1]]", ErrorCode::kBadOption},
      {R"([{"a": 1}])", ErrorCode::kBadOption},
      {"[1e400]", ErrorCode::kBadOption},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.json));
    StatusOr<PartitionKey> key = ParsePartitionKeyJson(c.json);
    ASSERT_FALSE(key.ok());
    EXPECT_EQ(key.status().code(), c.code) << key.status().ToString();
    EXPECT_FALSE(key.status().message().empty());
  }
  StatusOr<PartitionKey> bad = ParsePartitionKeyJson("[1, tru]");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().where().known());
}

TEST(EffectivePartitionKeyTest, ParseKeyComponentLiteral) {
  EXPECT_EQ(ParseKeyComponentLiteral(R"("redmond")").value(), S("redmond"));
  EXPECT_EQ(ParseKeyComponentLiteral("5.5").value(), N(5.5));
  EXPECT_TRUE(std::signbit(ParseKeyComponentLiteral("-0").value().number));
  EXPECT_EQ(ParseKeyComponentLiteral("true").value(), KeyComponent::Bool(true));
  EXPECT_EQ(ParseKeyComponentLiteral("null").value(), KeyComponent::Null());
  EXPECT_EQ(ParseKeyComponentLiteral("undefined").value(), KeyComponent::Undefined());
  EXPECT_EQ(ParseKeyComponentLiteral("{}").value(), KeyComponent::Undefined());
  for (std::string_view bad : {"", "redmond", "[1]", "1,2", "1 2", "\"a", "Undefined"}) {
    SCOPED_TRACE(std::string(bad));
    EXPECT_FALSE(ParseKeyComponentLiteral(bad).ok());
  }
}

// The bulk form (reused buffer, hex or bytes) gives the SDK's EPK, and its errors.
TEST(EffectivePartitionKeyTest, IntoGivesTheSameEpkAsHexOrBytes) {
  std::vector<PartitionKey> keys = {
      PartitionKey{},
      PartitionKey{{KeyComponent::String("")}},
      PartitionKey{{KeyComponent::String("user-42")}},
      PartitionKey{{KeyComponent::String(std::string(300, 'z'))}},
      PartitionKey{{KeyComponent::String("\xc3\xa9t\xc3\xa9 plus long que huit")}},
      PartitionKey{{KeyComponent::Number(-2.5), KeyComponent::Bool(true)}},
      PartitionKey{{KeyComponent::String("a"), KeyComponent::Null(), KeyComponent::Undefined()}},
  };
  std::string out = "left over";
  for (V version : {V::kV1, V::kV2, V::kMultiHash}) {
    for (const PartitionKey& key : keys) {
      StatusOr<std::string> want = EffectivePartitionKey(key, version);
      ASSERT_TRUE(want.ok());
      ASSERT_TRUE(EffectivePartitionKeyInto(key, version, EpkForm::kHex, out).ok());
      EXPECT_EQ(out, want.value()) << key.ToJson();
      ASSERT_TRUE(EffectivePartitionKeyInto(key, version, EpkForm::kBytes, out).ok());
      std::string hex;
      for (unsigned char c : out) hex += fmt::format("{:02X}", c);
      EXPECT_EQ(hex, want.value()) << key.ToJson();
    }
  }
  // A string that is not UTF-8 fails, past the 8-byte ASCII scan too, in every form.
  for (std::string text : {"\xff"s, "abcdefghij\xc3"s, "abcdefgh\xed\xa0\x80"s}) {
    PartitionKey bad{{KeyComponent::String(text)}};
    for (V version : {V::kV1, V::kV2, V::kMultiHash}) {
      EXPECT_EQ(EffectivePartitionKey(bad, version).status().code(), ErrorCode::kInvalidUtf8);
      EXPECT_EQ(EffectivePartitionKeyInto(bad, version, EpkForm::kBytes, out).code(),
                ErrorCode::kInvalidUtf8);
    }
  }
}

// The container model's V2 hashing reads canonical bytes directly: the same 16 bytes as the
// decoded key's EPK (checked against @azure/cosmos above), and the same error, on seeded keys of
// every kind, one to three components, strings of every UTF-8 length and invalid ones.
TEST(EffectivePartitionKeyTest, V2FromCanonicalBytesEqualsTheDecodedKeys) {
  uint64_t state = 20261128;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  const std::vector<std::string> pieces = {"a", "Z", "0", " ", "\xc3\xa9", "\xe2\x82\xac",
                                           "\xf0\x9f\x98\x80", "\xff", "\xc3", "\xed\xa0\x80", ""};
  const std::vector<double> numbers = {0.0, -0.0, 1.5, -7.0, 1e300, 5e-324,
                                       std::numeric_limits<double>::quiet_NaN(), 9007199254740993.0};
  std::string scratch, expected;
  int checked = 0, refused = 0;
  for (int round = 0; round < 4000; ++round) {
    PartitionKey key;
    const uint64_t components = round == 0 ? 0 : 1 + next(3);
    for (uint64_t c = 0; c < components; ++c) {
      switch (next(6)) {
        case 0: key.components.push_back(KeyComponent::Undefined()); break;
        case 1: key.components.push_back(KeyComponent::Null()); break;
        case 2: key.components.push_back(KeyComponent::Bool(next(2) == 1)); break;
        case 3: key.components.push_back(KeyComponent::Number(numbers[next(numbers.size())])); break;
        default: {
          std::string text;
          const uint64_t n = next(2) ? next(8) : 90 + next(30);  // short, or past 100 bytes
          for (uint64_t k = 0; k < n; ++k) {
            // Invalid bytes in one key of 8 only, so most keys hash.
            size_t p = next(pieces.size());
            while (next(8) != 0 && (pieces[p] == "\xff" || pieces[p] == "\xc3" ||
                                    pieces[p] == "\xed\xa0\x80")) {
              p = next(pieces.size());
            }
            text += pieces[p];
          }
          key.components.push_back(KeyComponent::String(text));
        }
      }
    }
    const std::string canonical = key.CanonicalBytes();
    const PartitionKey decoded = PartitionKey::FromCanonicalBytes(canonical);
    Status want = EffectivePartitionKeyInto(decoded, V::kV2, EpkForm::kBytes, expected);
    char got[16];
    Status status = EffectivePartitionKeyV2FromCanonical(canonical, scratch, got);
    ASSERT_EQ(status.ok(), want.ok()) << round << ": " << want.message() << " / " << status.message();
    if (!want.ok()) {
      EXPECT_EQ(status.code(), want.code()) << round;
      EXPECT_EQ(status.message(), want.message()) << round;
      ++refused;
      continue;
    }
    ASSERT_EQ(std::string_view(got, 16), expected) << round;
    ++checked;
  }
  EXPECT_GT(checked, 2000);
  EXPECT_GT(refused, 20);
  // A NaN of another payload (no JSON number gives one) hashes as the SDK's one NaN both ways,
  // and bytes that end inside a component are refused.
  std::string nan_key(1, static_cast<char>(KeyKind::kNumber));
  const uint64_t other_nan = 0xFFF4000000000001ull;
  nan_key.append(reinterpret_cast<const char*>(&other_nan), 8);
  char got[16];
  ASSERT_TRUE(EffectivePartitionKeyV2FromCanonical(nan_key, scratch, got).ok());
  ASSERT_TRUE(EffectivePartitionKeyInto(PartitionKey::FromCanonicalBytes(nan_key), V::kV2,
                                        EpkForm::kBytes, expected)
                  .ok());
  EXPECT_EQ(std::string_view(got, 16), expected);
  EXPECT_FALSE(EffectivePartitionKeyV2FromCanonical(nan_key.substr(0, 5), scratch, got).ok());
}

}  // namespace
}  // namespace partplay
