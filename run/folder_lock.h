// One process at a time in a run folder (`mmasp run --out`, `report --out`, `merge --out`, the folders of --devices and
// screen): two runs writing one folder would interleave their results and journals. The lock is flock(2) on the
// folder itself, so no lock file is left behind and a process that dies (kill -9 included) releases it at once.
#pragma once

#include <filesystem>
#include <string>

namespace mmasp::run {

class FolderLock {
 public:
  // Creates `dir` when it is missing (and its parents) and holds an exclusive lock on it until destroyed. `option`
  // names the flag in messages ("--out"). UsageError when another process holds it, naming that process from the
  // folder's journal when there is one: "--out X is in use by another mmasp run (pid 123 on host h since T: mmasp run
  // ...)".
  FolderLock(const std::filesystem::path& dir, const std::string& option);
  ~FolderLock();
  // Whether this lock created the folder; a command refused after taking the lock removes a folder it created and left
  // empty (remove_if_unused), so that a usage error leaves --out as it was.
  bool created() const { return created_; }
  void remove_if_unused() const;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
  bool created_ = false;
  std::filesystem::path dir_;
};

}  // namespace mmasp::run
