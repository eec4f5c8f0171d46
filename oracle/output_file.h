// Writing the files mmasp produces (reports, journals, case files, cache and store entries): the one place that says
// how. A file is never half written where a reader could find it (written to a temporary file beside it, then
// renamed over it), never written through a symbolic link planted at its name (O_NOFOLLOW; the rename replaces a
// link instead of following it), and every failed write (a full disk, a read-only folder) is an error naming the path.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mmasp {

struct OutputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `content` as the whole of `path`, or OutputFileError "cannot write PATH: <why>" (and no temporary file left).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// A file written line by line (results.jsonl, journal.jsonl): opened without following a link at its name, each
// write whole or an OutputFileError naming the path.
class AppendFile {
 public:
  enum class Start { empty, keep };   // truncate, or append to what is there
  AppendFile(const std::filesystem::path& path, Start start);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;
  void write(std::string_view text);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// `dir` and its parents, as create_directories does, but `dir` itself must end up a real directory: a symbolic link
// (or anything else) at its name is an OutputFileError, never followed.
void make_real_directory(const std::filesystem::path& dir);

}  // namespace mmasp
