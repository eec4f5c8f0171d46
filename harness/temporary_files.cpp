#include "harness/temporary_files.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace mmasp {
namespace fs = std::filesystem;
namespace {

constexpr const char* kPrefix = "mmasp-";

// "mmasp-<pid>-XXXXXX" -> pid; 0 for any other name.
pid_t owner_of(const std::string& name) {
  if (name.rfind(kPrefix, 0) != 0) return 0;
  const std::string rest = name.substr(std::string(kPrefix).size());
  const size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash) return 0;
  return pid_t(std::strtol(rest.substr(0, dash).c_str(), nullptr, 10));
}

}  // namespace

void remove_orphaned_temporary_directories(const fs::path& root) {
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(root, ignored)) {
    const pid_t owner = owner_of(entry.path().filename().string());
    if (owner > 0 && owner != getpid() && kill(owner, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ignored);
  }
}

namespace {

struct ProcessDirectory {
  fs::path path;
  ProcessDirectory() {
    const fs::path root = fs::temp_directory_path();
    remove_orphaned_temporary_directories(root);
    std::string name = (root / (kPrefix + std::to_string(getpid()) + "-XXXXXX")).string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a temporary directory in " + root.string());
    path = name;
  }
  ~ProcessDirectory() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

const fs::path& process_temporary_directory() {
  static const ProcessDirectory directory;
  return directory.path;
}

fs::path write_temporary_file(const std::string& content, const std::string& suffix) {
  std::string name = (process_temporary_directory() / ("file-XXXXXX" + suffix)).string();
  const int fd = mkstemps(name.data(), int(suffix.size()));
  if (fd < 0) throw std::runtime_error("cannot create a temporary file in " + process_temporary_directory().string());
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n <= 0) {
      close(fd);
      throw std::runtime_error("cannot write the temporary file " + name);
    }
    written += size_t(n);
  }
  close(fd);
  return name;
}

}  // namespace mmasp
