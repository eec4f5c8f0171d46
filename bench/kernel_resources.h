// The resident kernels as ptxas built them: each entry's registers, stack frame and spills (ptxas -v's report, which
// the build writes beside the sm_90a cubin) and its code (the cubin's .text.<kernel> section), and the launch bounds
// the generated source gives each. Read by the CPU tests (suites/resident_kernels_test.cpp) and by the advisory report
// (bench/resident_kernel_report.cpp), which compares them with the kernels last measured on a GPU.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstring>
#include <istream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace mmasp::bench {

struct Resources {
  int registers = -1;
  int frame_bytes = -1;
  int spill_store_bytes = -1;
  int spill_load_bytes = -1;
};

// An entry function's resources from ptxas -v's report. After "Compiling entry function 'K'", the report's
// "Function properties for K" is followed by a line of its stack frame and spills, then "Used N registers". Device
// functions that are not inlined get "Function properties" lines of their own, which are skipped.
inline std::map<std::string, Resources> read_ptxas_report(std::istream& in) {
  std::map<std::string, Resources> entries;
  std::string line, entry, properties_of;
  const auto number_before = [](const std::string& text, const std::string& what) {
    const size_t at = text.find(what);
    if (at == std::string::npos) return -1;
    size_t start = at;
    while (start > 0 && text[start - 1] == ' ') --start;
    size_t digits = start;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(text[digits - 1]))) --digits;
    return digits == start ? -1 : std::stoi(text.substr(digits, start - digits));
  };
  const auto quoted_after = [](const std::string& text, const std::string& what) {
    const size_t at = text.find(what);
    if (at == std::string::npos) return std::string();
    const size_t open = text.find('\'', at + what.size());
    const size_t close = open == std::string::npos ? open : text.find('\'', open + 1);
    return close == std::string::npos ? std::string() : text.substr(open + 1, close - open - 1);
  };
  while (std::getline(in, line)) {
    if (const std::string name = quoted_after(line, "Compiling entry function"); !name.empty()) {
      entry = name;
      entries[entry];
      properties_of.clear();
    } else if (const size_t at = line.find("Function properties for "); at != std::string::npos) {
      properties_of = line.substr(at + std::string("Function properties for ").size());
    } else if (line.find("bytes stack frame") != std::string::npos) {
      if (!entry.empty() && properties_of == entry) {
        entries[entry].frame_bytes = number_before(line, " bytes stack frame");
        entries[entry].spill_store_bytes = number_before(line, " bytes spill stores");
        entries[entry].spill_load_bytes = number_before(line, " bytes spill loads");
      }
      properties_of.clear();
    } else if (line.find("Used ") != std::string::npos && !entry.empty() && entries[entry].registers < 0) {
      entries[entry].registers = number_before(line, " registers");
    }
  }
  return entries;
}


// An ELF64 file's sections named `.text.<kernel>` (a cubin holds each kernel's code in one), by kernel name. Every
// offset is checked against the file's size; a file that is not ELF64 little-endian gives none.
inline std::map<std::string, std::string> kernel_text_sections(const std::vector<unsigned char>& elf) {
  std::map<std::string, std::string> out;
  const auto read = [&](size_t at, size_t bytes, uint64_t* value) {
    if (at > elf.size() || bytes > elf.size() - at) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; ++i) v |= uint64_t(elf[at + i]) << (8 * i);
    *value = v;
    return true;
  };
  if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1) return out;
  uint64_t table = 0, entry = 0, count = 0, names = 0;
  if (!read(0x28, 8, &table) || !read(0x3A, 2, &entry) || !read(0x3C, 2, &count) || !read(0x3E, 2, &names) ||
      entry < 0x28 || names >= count)
    return out;
  uint64_t names_at = 0, names_size = 0;
  if (!read(table + names * entry + 0x18, 8, &names_at) || !read(table + names * entry + 0x20, 8, &names_size) ||
      names_at > elf.size() || names_size > elf.size() - names_at)
    return out;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t name = 0, type = 0, at = 0, size = 0;
    const uint64_t header = table + i * entry;
    if (!read(header, 4, &name) || !read(header + 4, 4, &type) || !read(header + 0x18, 8, &at) ||
        !read(header + 0x20, 8, &size) || name >= names_size)
      continue;
    const char* begin = reinterpret_cast<const char*>(elf.data() + names_at + name);
    const std::string section(begin, strnlen(begin, size_t(names_size - name)));
    const std::string prefix = ".text.";
    if (section.rfind(prefix, 0) != 0 || type == 8 /* SHT_NOBITS */ || at > elf.size() || size > elf.size() - at)
      continue;
    out[section.substr(prefix.size())] = std::string(reinterpret_cast<const char*>(elf.data() + at), size_t(size));
  }
  return out;
}

// Each kernel of the generated source (resident/resident_source.cpp) and its __launch_bounds__' threads per block.
inline std::map<std::string, unsigned> kernel_launch_bounds(const std::string& source) {
  std::map<std::string, unsigned> out;
  static const std::regex entry(R"(__launch_bounds__\((\d+), *\d+\)\s*\n\s*(\w+)\()");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), entry); it != std::sregex_iterator(); ++it)
    out[(*it)[2].str()] = unsigned(std::stoul((*it)[1].str()));
  return out;
}

}  // namespace mmasp::bench
