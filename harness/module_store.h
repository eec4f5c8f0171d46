// Toolkit-compiled modules (ptxas -> cubin), kept on disk by the content of the PTX and the target. A GPU runner
// without a toolkit can use a store filled elsewhere (`mmasp prepare`), and a runner with one fills it as it goes.
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
  // works (no toolkit here and not prepared, or ptxas rejects it).
  std::optional<std::string> cubin(const std::string& ptx, const std::string& target, std::string* why) const;
  std::string toolkit_version() const;

  static std::string key(const std::string& ptx, const std::string& target);

 private:
  std::filesystem::path dir_;
  const Ptxas* ptxas_;
};

}  // namespace mmasp
