// Temporary files of this process (PTX for ptxas, cubins for cuobjdump) live in one directory of its own,
// $TMPDIR/mmasp-<pid>-<random>, removed when the process exits. A process that could not clean up (kill -9, a crash)
// leaves its directory behind; the next mmasp process removes every such directory whose process no longer exists and
// that holds mmasp's marker file (.mmasp-temporary, naming its pid): nothing mmasp did not make is ever removed.
#pragma once

#include <filesystem>
#include <string>

namespace mmasp {

// Created on first use.
const std::filesystem::path& process_temporary_directory();

// Removes $TMPDIR/mmasp-<pid>-* directories whose process no longer exists and that carry the marker (done once by
// the first call above).
void remove_orphaned_temporary_directories(const std::filesystem::path& root);

// A new, empty file in that directory ending in `suffix` (".ptx"), holding `content`; returns its path.
std::filesystem::path write_temporary_file(const std::string& content, const std::string& suffix);

}  // namespace mmasp
