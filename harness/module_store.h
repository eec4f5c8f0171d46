// Toolkit-compiled modules (ptxas -> cubin), kept on disk by the content of the PTX and the target. A GPU runner
// without a toolkit can use a store filled elsewhere (`mmasp prepare`), and a runner with one fills it as it goes.
// The store checks what it holds: an entry that is empty, cut short or not a cubin is made again (or, without a
// toolkit, refused with its path); anything at an entry's name that is not a regular file is left alone and said; a
// store that cannot be written is used for reading only, with a warning.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "harness/ptxas.h"

namespace mmasp {

class ModuleStore {
 public:
  // dir empty: nothing is stored. ptxas null: lookups only.
  ModuleStore(std::filesystem::path dir, const Ptxas* ptxas);

  // The cubin for this PTX and target: from the store, else compiled and stored. nullopt with `why` when neither
  // works (no toolkit here and not prepared, ptxas rejects it, or the prepared entry is damaged).
  std::optional<std::string> cubin(const std::string& ptx, const std::string& target, std::string* why) const;
  // `mmasp prepare`: makes sure the store holds a whole cubin for this PTX and target — compiled when missing or
  // damaged, and written and read back. false with `why` when it does not (ptxas rejects it, a full disk, a read-only
  // store, something else at the entry's name).
  bool prepare(const std::string& ptx, const std::string& target, std::string* why) const;
  std::string toolkit_version() const;

  static std::string key(const std::string& ptx, const std::string& target);

 private:
  // The stored entry when it is a whole cubin; `problem` says why not otherwise ("" when there is no entry).
  std::optional<std::string> stored(const std::filesystem::path& entry, std::string* problem) const;
  std::filesystem::path dir_;
  const Ptxas* ptxas_;
};

}  // namespace mmasp
