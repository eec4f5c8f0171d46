// What goes wrong with the ptxas cache and the module store is never the run's failure: an entry that cannot be read
// is made afresh, one that cannot be written is not kept. The person at the terminal is told once per kind of
// problem (a read-only cache would otherwise print one line per module).
#pragma once

#include <string>

namespace mmasp {

// Prints "mmasp: warning: TEXT" on stderr the first time `kind` is given in this process; later calls with the same
// kind print nothing.
void warn_once(const std::string& kind, const std::string& text);

// Why these bytes are not a whole cubin (an ELF64 image whose headers and sections all lie inside it), or "" when
// they are: a store entry left empty by a full disk, cut short, or overwritten with anything else is made again.
std::string cubin_problem(const std::string& bytes);

}  // namespace mmasp
