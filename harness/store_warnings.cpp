#include "harness/store_warnings.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <mutex>
#include <set>

namespace mmasp {

void warn_once(const std::string& kind, const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard lock(mutex);
  // One write for the whole line: std::cerr is unbuffered, so three insertions were three writes, and a progress line
  // from another thread could land between them ("mmasp: warning: compile conformance: 1/8" then the text: a CTest
  // run of PtxasCache.AReadOnlyCacheRunsUncachedWithAWarning failed so).
  if (said.insert(kind).second) std::cerr << ("mmasp: warning: " + text + "\n") << std::flush;
}

namespace {

template <typename T>
T field(const std::string& bytes, size_t at) {
  T value{};
  std::memcpy(&value, bytes.data() + at, sizeof value);   // ELF of the host's byte order, which is the GPU runner's
  return value;
}

}  // namespace

std::string cubin_problem(const std::string& bytes) {
  // ELF64 header (the System V gABI): e_ident, then e_phoff at 0x20, e_shoff at 0x28, e_phentsize/e_phnum at
  // 0x36/0x38, e_shentsize/e_shnum at 0x3a/0x3c; section headers hold sh_type at +4, sh_offset at +0x18, sh_size at
  // +0x20. Enough to see that nothing the loader will read lies past the end.
  if (bytes.empty()) return "empty";
  if (bytes.size() < 64 || bytes.compare(0, 4, "\x7f" "ELF") != 0 || bytes[4] != 2) return "not an ELF64 image";
  const uint64_t size = bytes.size();
  const auto table_fits = [&](uint64_t offset, uint64_t entry, uint64_t count) {
    return offset <= size && entry * count <= size - offset;
  };
  const auto phoff = field<uint64_t>(bytes, 0x20), shoff = field<uint64_t>(bytes, 0x28);
  const auto phentsize = field<uint16_t>(bytes, 0x36), phnum = field<uint16_t>(bytes, 0x38);
  const auto shentsize = field<uint16_t>(bytes, 0x3a), shnum = field<uint16_t>(bytes, 0x3c);
  if (!table_fits(phoff, phentsize, phnum)) return "cut short (its program headers lie past its end)";
  if (!table_fits(shoff, shentsize, shnum) || (shnum && shentsize < 0x28)) return "cut short (its section headers lie past its end)";
  constexpr uint32_t kNoBits = 8;   // SHT_NOBITS: a section with no bytes in the file
  for (uint16_t s = 0; s < shnum; ++s) {
    const uint64_t header = shoff + uint64_t(s) * shentsize;
    if (field<uint32_t>(bytes, header + 4) == kNoBits) continue;
    const auto offset = field<uint64_t>(bytes, header + 0x18), length = field<uint64_t>(bytes, header + 0x20);
    if (offset > size || length > size - offset) return "cut short (section " + std::to_string(s) + " lies past its end)";
  }
  return "";
}

}  // namespace mmasp
