#include "run/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "oracle/input_file.h"
#include "run/journal.h"
#include "run/usage_error.h"

namespace mmasp::run {

FolderLock::FolderLock(const std::filesystem::path& dir, const std::string& option) : dir_(dir) {
  std::error_code error;
  created_ = std::filesystem::create_directories(dir, error);
  if (error) throw UsageError(option + " " + dir.string() + ": cannot create it (" + error.message() + ")");
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw UsageError(option + " " + dir.string() + ": not a directory mmasp can open (" + std::strerror(errno) + ")");
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int why = errno;
  ::close(fd_);
  fd_ = -1;
  if (why != EWOULDBLOCK)
    throw UsageError(option + " " + dir.string() + ": cannot lock it (" + std::strerror(why) + ")");
  std::string holder = "another mmasp process";
  if (const auto header = read_journal_header(dir / kJournalFile))
    holder = "another mmasp run (pid " + std::to_string(header->pid) + " on " + printable(header->host) + " since " +
             printable(header->started) + ": " + printable(header->command) + ")";
  throw UsageError(option + " " + dir.string() + " is in use by " + holder +
                   "; wait for it to finish, or give another " + option);
}

void FolderLock::remove_if_unused() const {
  std::error_code error;
  if (created_ && std::filesystem::is_empty(dir_, error) && !error) std::filesystem::remove(dir_, error);
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);   // closing the last descriptor releases the lock
}

}  // namespace mmasp::run
