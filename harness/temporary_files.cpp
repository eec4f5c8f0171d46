#include "harness/temporary_files.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace mmasp {
namespace fs = std::filesystem;
namespace {

constexpr const char* kPrefix = "mmasp-";
// Written into every process directory when it is made: only a directory holding it, as a regular file naming that
// directory's pid, is ever removed as an orphan. A user's "mmasp-20261207-nightly/" is never touched.
constexpr const char* kMarker = ".mmasp-temporary";

std::string marker_text(pid_t pid) { return "mmasp temporary directory of process " + std::to_string(pid) + "\n"; }

bool carries_marker(const fs::path& directory, pid_t owner) {
  std::error_code error;
  const fs::path marker = directory / kMarker;
  if (!fs::is_regular_file(fs::symlink_status(marker, error)) || error) return false;
  const int fd = open(marker.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  char text[128];
  const ssize_t got = read(fd, text, sizeof text);
  close(fd);
  return got > 0 && std::string(text, size_t(got)) == marker_text(owner);
}

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
    if (owner <= 0 || owner == getpid()) continue;
    // A real directory (never a link), of a process that is gone, that mmasp made: its marker says so.
    if (!fs::is_directory(fs::symlink_status(entry.path(), ignored))) continue;
    if (kill(owner, 0) == 0 || errno != ESRCH) continue;
    if (carries_marker(entry.path(), owner)) fs::remove_all(entry.path(), ignored);
  }
}

namespace {

struct ProcessDirectory {
  fs::path path;
  ProcessDirectory() {
    std::error_code error;
    const fs::path root = fs::temp_directory_path(error);
    if (error) {
      const char* tmpdir = std::getenv("TMPDIR");
      throw std::runtime_error(std::string("no usable directory for temporary files: ") +
                               (tmpdir ? "TMPDIR=" + std::string(tmpdir) : std::string("/tmp")) + " (" + error.message() +
                               "); set TMPDIR to an existing, writable directory");
    }
    remove_orphaned_temporary_directories(root);
    std::string name = (root / (kPrefix + std::to_string(getpid()) + "-XXXXXX")).string();
    if (!mkdtemp(name.data()))
      throw std::runtime_error("cannot create a temporary directory in " + root.string() + ": " + std::strerror(errno) +
                               " (set TMPDIR to a writable directory)");
    path = name;
    const std::string marker = marker_text(getpid());
    const int fd = open((path / kMarker).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, marker.data(), marker.size()) != ssize_t(marker.size())) {
      if (fd >= 0) close(fd);
      throw std::runtime_error("cannot write " + (path / kMarker).string());
    }
    close(fd);
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
