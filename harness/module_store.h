// Toolkit-compiled modules (ptxas -> cubin), kept on disk by the content of the PTX and the target. A GPU runner
// without a toolkit can use a store filled elsewhere (`mmasp prepare`), and a runner with one fills it as it goes.
// The store checks what it holds: an entry that is empty, cut short or not a cubin is made again (or, without a
// toolkit, refused with its path); anything at an entry's name that is not a regular file is left alone and said; a
// store that cannot be written is used for reading only, with a warning. It also keeps the driver's JIT of the resident
// kernels' PTX images (jitted), so that only a GPU's first run after a driver change pays it.
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

  // The driver's JIT of a PTX image for one GPU (the resident kernels' PTX images: resident/resident.h), kept by the
  // PTX and `gpu` (its architecture and the driver's version, which the caller spells: a new driver may compile the
  // same PTX otherwise, another architecture needs its own). nullopt when not kept; `problem` says why an entry that
  // is there is not used ("" when there is none). Needs no toolkit.
  std::optional<std::string> jitted(const std::string& ptx, const std::string& gpu, std::string* problem) const;
  // Keeps `cubin` as that entry: written atomically with its digest, and read back. false with `why` when it is not
  // kept (no store, a full disk, a read-only store, something else at the entry's name).
  bool keep_jitted(const std::string& ptx, const std::string& gpu, const std::string& cubin, std::string* why) const;
  const std::filesystem::path& dir() const { return dir_; }

  static std::string key(const std::string& ptx, const std::string& target);

 private:
  // The stored entry when it is a whole cubin; `problem` says why not otherwise ("" when there is no entry).
  std::optional<std::string> stored(const std::filesystem::path& entry, std::string* problem) const;
  std::filesystem::path dir_;
  const Ptxas* ptxas_;
};

}  // namespace mmasp
