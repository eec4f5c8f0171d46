#include "harness/module_store.h"

#include <sys/stat.h>

#include "harness/sha256.h"
#include "harness/store_warnings.h"
#include "oracle/input_file.h"
#include "oracle/output_file.h"

namespace fs = std::filesystem;

namespace mmasp {
namespace {

// The largest cubin kept here, the driver's JIT of a resident PTX image, is a few MB; anything near this is not one
// of ours.
constexpr uintmax_t kMaxCubinBytes = uintmax_t(64) << 20;

// Each entry has a digest beside it (<key>.cubin.sha256): the SHA-256 of its key and its bytes. A flipped code bit, a
// zeroed body or another module's cubin under this key no longer matches, and the entry counts as damaged. It catches
// damage and mix-ups, not forgery: the store is not a security boundary.
fs::path digest_path(const fs::path& entry) { return entry.string() + ".sha256"; }
std::string entry_digest(const fs::path& entry, const std::string& bytes) {
  return sha256_hex(entry.stem().string() + '\0' + bytes);
}

void write_entry(const fs::path& entry, const std::string& bytes) {
  write_file_atomically(entry, bytes);
  write_file_atomically(digest_path(entry), entry_digest(entry, bytes) + "\n");
}

}  // namespace

ModuleStore::ModuleStore(fs::path dir, const Ptxas* ptxas) : dir_(std::move(dir)), ptxas_(ptxas) {}

std::string ModuleStore::key(const std::string& ptx, const std::string& target) {
  return sha256_hex(target + '\0' + ptx);
}

std::string ModuleStore::toolkit_version() const {
  if (ptxas_) return ptxas_->info().version;
  if (!dir_.empty()) {
    try {
      const std::string text = read_input_file(dir_ / "toolkit.txt", 4096, "a module store's toolkit.txt");
      const std::string line = text.substr(0, text.find('\n'));
      if (!line.empty()) return printable(line) + " (prepared elsewhere)";
    } catch (const InputFileError&) {
    }
  }
  return "none";
}

std::optional<std::string> ModuleStore::stored(const fs::path& entry, std::string* problem) const {
  problem->clear();
  struct stat status {};
  if (::lstat(entry.c_str(), &status) != 0) return std::nullopt;   // not stored yet
  if (!S_ISREG(status.st_mode)) {
    *problem = entry.string() + " is not a regular file (a directory, FIFO or link): left alone";
    return std::nullopt;
  }
  try {
    std::string bytes = read_input_file(entry, kMaxCubinBytes, "a cubin");
    if (const std::string why = cubin_problem(bytes); !why.empty()) {
      *problem = entry.string() + " is damaged (" + why + ")";
      return std::nullopt;
    }
    std::string recorded;
    try {
      recorded = read_input_file(digest_path(entry), 256, "a module digest");
    } catch (const InputFileError&) {
      *problem = entry.string() + " has no digest beside it (" + digest_path(entry).filename().string() +
                 "): it cannot be shown whole";
      return std::nullopt;
    }
    if (recorded.substr(0, recorded.find('\n')) != entry_digest(entry, bytes)) {
      *problem = entry.string() + " is damaged (its bytes do not match its digest)";
      return std::nullopt;
    }
    return bytes;
  } catch (const InputFileError& error) {
    *problem = error.what();
    return std::nullopt;
  }
}

std::optional<std::string> ModuleStore::cubin(const std::string& ptx, const std::string& target, std::string* why) const {
  const fs::path entry = dir_.empty() ? fs::path() : dir_ / (key(ptx, target) + ".cubin");
  std::string problem;
  if (!entry.empty())
    if (auto bytes = stored(entry, &problem)) return bytes;
  if (!ptxas_) {
    if (why)
      *why = problem.empty() ? "no toolkit ptxas on this machine and no prepared module (mmasp prepare)"
                             : problem + ", and there is no toolkit ptxas on this machine to make it again (mmasp prepare)";
    return std::nullopt;
  }
  if (!problem.empty()) warn_once("module-store-entry", "module store: " + problem + "; made again");
  std::string diagnostics;
  auto bytes = ptxas_->compile_cubin({ptx, target}, &diagnostics);
  if (!bytes) {
    if (why) *why = "ptxas rejected the module: " + diagnostics;
    return std::nullopt;
  }
  const bool not_a_file = problem.find("not a regular file") != std::string::npos;
  if (!entry.empty() && !not_a_file) {
    try {
      make_real_directory(dir_);
      write_entry(entry, *bytes);
      write_file_atomically(dir_ / "toolkit.txt", ptxas_->info().version + "\n");
    } catch (const OutputFileError& error) {
      warn_once("module-store-write", std::string("module store: ") + error.what() + "; modules are compiled but not kept");
    }
  }
  return bytes;
}

namespace {
fs::path jit_entry(const fs::path& dir, const std::string& ptx, const std::string& gpu) {
  return dir / ("jit-" + sha256_hex(gpu + '\0' + ptx) + ".cubin");
}
}  // namespace

std::optional<std::string> ModuleStore::jitted(const std::string& ptx, const std::string& gpu, std::string* problem) const {
  problem->clear();
  if (dir_.empty()) return std::nullopt;
  return stored(jit_entry(dir_, ptx, gpu), problem);
}

bool ModuleStore::keep_jitted(const std::string& ptx, const std::string& gpu, const std::string& cubin,
                              std::string* why) const {
  if (dir_.empty()) {
    *why = "no module store";
    return false;
  }
  if (const std::string damage = cubin_problem(cubin); !damage.empty()) {
    *why = "the driver's JIT made no whole cubin (" + damage + ")";
    return false;
  }
  const fs::path entry = jit_entry(dir_, ptx, gpu);
  std::string problem;
  if (!stored(entry, &problem) && problem.find("not a regular file") != std::string::npos) {
    *why = problem;
    return false;
  }
  try {
    make_real_directory(dir_);
    write_entry(entry, cubin);
  } catch (const OutputFileError& error) {
    *why = error.what();
    return false;
  }
  if (!stored(entry, &problem)) {
    *why = problem.empty() ? entry.string() + " is missing after it was written" : problem;
    return false;
  }
  return true;
}

bool ModuleStore::prepare(const std::string& ptx, const std::string& target, std::string* why) const {
  if (dir_.empty() || !ptxas_) {
    *why = "no store or no toolkit";
    return false;
  }
  const fs::path entry = dir_ / (key(ptx, target) + ".cubin");
  std::string problem;
  if (stored(entry, &problem)) return true;
  if (problem.find("not a regular file") != std::string::npos) {
    *why = problem;
    return false;
  }
  std::string diagnostics;
  const auto bytes = ptxas_->compile_cubin({ptx, target}, &diagnostics);
  if (!bytes) {
    *why = "ptxas rejected the module: " + diagnostics;
    return false;
  }
  if (const std::string damage = cubin_problem(*bytes); !damage.empty()) {
    *why = "ptxas wrote no whole cubin (" + damage + ")";
    return false;
  }
  try {
    make_real_directory(dir_);
    write_entry(entry, *bytes);
    write_file_atomically(dir_ / "toolkit.txt", ptxas_->info().version + "\n");
  } catch (const OutputFileError& error) {
    *why = error.what();
    return false;
  }
  // Read back: what a GPU runner will load is what is on disk.
  if (!stored(entry, &problem)) {
    *why = problem.empty() ? entry.string() + " is missing after it was written" : problem;
    return false;
  }
  return true;
}

}  // namespace mmasp
