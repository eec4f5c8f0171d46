#include "oracle/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace mmasp {
namespace {

std::string why(int error) { return std::strerror(error); }

// Writes all of `text`, or returns the errno of the write that failed.
int write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t wrote = ::write(fd, text.data(), text.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    text.remove_prefix(size_t(wrote));
  }
  return 0;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  // Beside the file (the rename must stay within one file system), named by process and a counter so concurrent
  // writers in one process or several never share a temporary file; O_EXCL refuses whatever sits at that name.
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw OutputFileError("cannot write " + path.string() + ": " + why(errno));
  int error = write_all(fd, content);
  if (::close(fd) != 0 && error == 0) error = errno;   // a full disk may only show at close (NFS, quotas)
  if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    throw OutputFileError("cannot write " + path.string() + ": " + why(error));
  }
}

AppendFile::AppendFile(const std::filesystem::path& path, Start start) : path_(path) {
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (start == Start::empty ? O_TRUNC : 0);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) {
    const int error = errno;
    throw OutputFileError("cannot write " + path.string() + ": " +
                          (error == ELOOP ? std::string("it is a symbolic link, and mmasp never writes through one") : why(error)));
  }
  struct stat status {};
  if (::fstat(fd_, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw OutputFileError("cannot write " + path.string() + ": not a regular file");
  }
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendFile::write(std::string_view text) {
  // One write call for a line shorter than the pipe/page limits; O_APPEND places it at the end atomically.
  if (const int error = write_all(fd_, text); error != 0) throw OutputFileError("cannot write " + path_.string() + ": " + why(error));
}

void make_real_directory(const std::filesystem::path& dir) {
  std::error_code ignored;
  if (dir.has_parent_path() && !dir.parent_path().empty()) std::filesystem::create_directories(dir.parent_path(), ignored);
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) throw OutputFileError("cannot create " + dir.string() + ": " + why(errno));
  struct stat status {};
  if (::lstat(dir.c_str(), &status) != 0) throw OutputFileError("cannot create " + dir.string() + ": " + why(errno));
  if (S_ISLNK(status.st_mode))
    throw OutputFileError(dir.string() + " is a symbolic link; mmasp never writes through one (remove it)");
  if (!S_ISDIR(status.st_mode)) throw OutputFileError(dir.string() + " exists and is not a directory");
}

}  // namespace mmasp
