// MurmurHash3 x86 32-bit and x64 128-bit against published vectors (smhasher, the mmh3 and
// murmurhash3js test suites) and against the JS port the Cosmos DB SDK uses
// (@azure/cosmos 4.10.1, dist/commonjs/utils/hashing/murmurHash.js): every expected value here
// was recomputed with that file before being written down.
#include "core/murmur_hash3.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace partplay::internal {
namespace {

// The SDK's x64.hash128 returns hex of the reference's 16 output bytes (h1 then h2, each
// little-endian); the same form here.
std::string Hex(const MurmurHash128& h) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  uint8_t bytes[16];
  h.Bytes(bytes);
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

struct TextVector {
  std::string_view text;
  uint32_t x86_32;
  const char* x64_128;
};

TEST(MurmurHash3Test, PublishedVectorsSeedZero) {
  const TextVector vectors[] = {
      {"", 0x00000000u, "00000000000000000000000000000000"},
      {"a", 0x3C2569B2u, "897859F6655555855A890E51483AB5E6"},
      {"ab", 0x9BBFD75Fu, "2E1BED16EA118B93ADD4529B01A75EE6"},
      {"abc", 0xB3DD93FAu, "6778AD3F3F3F96B4522DCA264174A23B"},
      {"abcd", 0x43ED676Au, "4FCD5646D6B77BB875E87360883E00F2"},
      {"hello", 0x248BFA47u, "029BBD41B3A7D8CB191DAE486A901E5B"},
      {"Hello, world!", 0xC0363E43u, "DF65D6D2D12D51F164C5F3A85066322C"},
      {"The quick brown fox jumps over the lazy dog", 0x2E4FF723u,
       "6C1B07BC7BBC4BE347939AC4A93C437A"},
      {"東京😀", 0xBA20352Du, "5070A0F50325DA0397276EBE1307ECF3"},
  };
  for (const auto& v : vectors) {
    SCOPED_TRACE(std::string(v.text));
    EXPECT_EQ(MurmurHash3X86_32(v.text), v.x86_32);
    EXPECT_EQ(Hex(MurmurHash3X64_128(v.text)), v.x64_128);
  }
}

TEST(MurmurHash3Test, HalvesOfTheX64Hash) {
  // The same two hashes as the two 64-bit halves (h1 is what mmh3.hash64 returns first).
  MurmurHash128 hello = MurmurHash3X64_128("hello");
  EXPECT_EQ(hello.h1, 0xCBD8A7B341BD9B02ull);
  EXPECT_EQ(hello.h2, 0x5B1E906A48AE1D19ull);
  MurmurHash128 fox = MurmurHash3X64_128("The quick brown fox jumps over the lazy dog");
  EXPECT_EQ(fox.h1, 0xE34BBC7BBC071B6Cull);
  EXPECT_EQ(fox.h2, 0x7A433CA9C49A9347ull);
}

TEST(MurmurHash3Test, Seeds) {
  EXPECT_EQ(MurmurHash3X86_32("", 1), 0x514E28B7u);
  EXPECT_EQ(MurmurHash3X86_32("hello", 0x9747B28Cu), 0x5D7F56E8u);
  EXPECT_EQ(Hex(MurmurHash3X64_128("hello", 42)), "086FAF60C9B3B8C47ABCEFB075B83423");
}

// Lengths 0..33 cover every tail case of both variants, one and two whole blocks; the bytes
// (i * 37 + 200) & 0xFF include values >= 0x80, where a signed load would differ.
TEST(MurmurHash3Test, EveryTailLength) {
  const uint32_t x86[] = {
      0x00000000u, 0x0D4B8860u, 0xFBBBE3F5u, 0x218C8818u, 0xE5BEBEFFu, 0x30B6945Cu, 0x02537241u,
      0xA17919B2u, 0x1147031Au, 0x6BF24626u, 0x1D3DAD63u, 0x75818EA2u, 0x03830625u, 0x5F3C7B0Fu,
      0x3206C61Du, 0x860BD275u, 0xC1C8A00Bu, 0x48CB23E8u, 0xE5500B59u, 0xFE02EA24u, 0xDB05EC71u,
      0x0498B518u, 0x9151B0F9u, 0x649F4AFCu, 0xB80874E0u, 0x36CCF7B8u, 0x48D9299Bu, 0x66B052D9u,
      0x2DBAB838u, 0xC2103844u, 0xBF5DC99Du, 0xFB0A5093u, 0xCD751A89u, 0x4F159EE6u,
  };
  const char* x64[] = {
      "00000000000000000000000000000000", "C351E54862D16BA4F6C1471E7FFA7605",
      "989BA6FE594830E31F11F6A7CA637C57", "4D995811C3C2921952B73DD9FCAE3C14",
      "2CF9B00A56F0BF419A096702BEFE3598", "324647A1D38036181B96AC02300324F7",
      "A9E6CCF4F7DFA42715A7A171296B598E", "8D968485BF857BCF0BE002270C292086",
      "D801D47131AD778C4BF19B9A66A2FB08", "549D2F82AF48C0EF96D2CEEEB5EB0070",
      "C62D3FC33D4412EDB0E7AEEB18CF595E", "8A6982A6D06D491B58BE2D6711377B6D",
      "F87E24612C833611DDF33C6BFC504B27", "22D0C79D6D1430E607499D8D393EA12F",
      "E7346F1F7EAE8A2028E699F2646F7065", "00184C5D84CA371212BF24DF23C773A1",
      "FB2AB76963EB5D0185A576FCC7C90E38", "6E6452E0FF697F067284E261217FC577",
      "0BD5B4AF42522AB584C9F61D6690798F", "E24D5BD03F149355E2A6F2D8A936DA3F",
      "F27B065A5539D9ABF2D14AB9537A242F", "2BC648DA1F453FF53E5531B84B1A1F14",
      "553A9C1D959BDBD270B476D86CF46914", "A42A14984ED843620C08AD613C65592A",
      "EE30F6F81CD7738024F6B496388D8FEB", "F9BBDD6FF2D268CB77F2B098176942FE",
      "91D65F9B6054E8D99092618A94F05FCC", "DD90CE989744D39D644E095C01E30114",
      "B003101D79B56947069EE95BC3563C90", "C6F82FAF9BFA2106973179B4B4E8490F",
      "BD4D641914E970E71E9D49DC52D34EEF", "7CDFE4C1EB4518B0C7228FF0CBA2A955",
      "A60C9EA3126FCF5F3BD4D5655AC049A5", "64A7A36EC5E093ED638DC5F71CCCD100",
  };
  std::vector<uint8_t> bytes;
  for (size_t n = 0; n <= 33; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(MurmurHash3X86_32(bytes.data(), bytes.size(), 0), x86[n]);
    EXPECT_EQ(Hex(MurmurHash3X64_128(bytes.data(), bytes.size(), 0)), x64[n]);
    bytes.push_back(static_cast<uint8_t>((n * 37 + 200) & 0xFF));
  }
}

TEST(MurmurHash3Test, UnalignedInput) {
  // Blocks are read byte by byte, so an odd address changes nothing.
  std::string buffer = "xThe quick brown fox jumps over the lazy dog";
  std::string_view unaligned(buffer.data() + 1, buffer.size() - 1);
  EXPECT_EQ(MurmurHash3X86_32(unaligned), 0x2E4FF723u);
  EXPECT_EQ(Hex(MurmurHash3X64_128(unaligned)), "6C1B07BC7BBC4BE347939AC4A93C437A");
}

}  // namespace
}  // namespace partplay::internal
