#include "harness/module_store.h"

#include <fstream>
#include <unistd.h>

#include "harness/sha256.h"

namespace fs = std::filesystem;

namespace mmasp {

ModuleStore::ModuleStore(fs::path dir, const Ptxas* ptxas) : dir_(std::move(dir)), ptxas_(ptxas) {}

std::string ModuleStore::key(const std::string& ptx, const std::string& target) {
  return sha256_hex(target + '\0' + ptx);
}

std::string ModuleStore::toolkit_version() const {
  if (ptxas_) return ptxas_->info().version;
  if (!dir_.empty()) {
    std::ifstream in(dir_ / "toolkit.txt");
    std::string line;
    if (std::getline(in, line)) return line + " (prepared elsewhere)";
  }
  return "none";
}

std::optional<std::string> ModuleStore::cubin(const std::string& ptx, const std::string& target, std::string* why) const {
  const fs::path entry = dir_.empty() ? fs::path() : dir_ / (key(ptx, target) + ".cubin");
  if (!entry.empty()) {
    std::ifstream in(entry, std::ios::binary);
    if (in) return std::string(std::istreambuf_iterator<char>(in), {});
  }
  if (!ptxas_) {
    if (why) *why = "no toolkit ptxas on this machine and no prepared module (mmasp prepare)";
    return std::nullopt;
  }
  std::string diagnostics;
  auto bytes = ptxas_->compile_cubin({ptx, target}, &diagnostics);
  if (!bytes) {
    if (why) *why = "ptxas rejected the module: " + diagnostics;
    return std::nullopt;
  }
  if (!entry.empty()) {
    fs::create_directories(dir_);
    const fs::path temporary = entry.string() + ".tmp" + std::to_string(getpid());
    {
      std::ofstream out(temporary, std::ios::binary);
      out << *bytes;
    }
    fs::rename(temporary, entry);
    std::ofstream(dir_ / "toolkit.txt") << ptxas_->info().version << "\n";
  }
  return bytes;
}

}  // namespace mmasp
