#include "generators/reproduction.h"

#include <cstdlib>

#include "oracle/case_file.h"
#include "oracle/output_file.h"

namespace mmasp::gen {

std::filesystem::path failure_directory() {
  if (const char* dir = std::getenv("MMASP_FAILURE_DIR"); dir && *dir) return dir;
  return std::filesystem::current_path() / "mmasp-failures";
}

std::string save_failure(const MmaCase& test, std::optional<std::span<const uint32_t>> observed_d,
                         const std::string& origin, const std::vector<std::string>& comments,
                         const std::filesystem::path& directory, const std::string& architecture) {
  CaseFile file;
  file.test = test;
  file.comment.push_back("saved by mmasp: " + origin);
  for (const auto& line : comments) file.comment.push_back(line);
  if (observed_d) file.observed_d = std::vector<uint32_t>(observed_d->begin(), observed_d->end());
  file.provenance = {{"origin", origin}};
  if (!architecture.empty()) file.architecture = architecture;
  const auto dir = directory.empty() ? failure_directory() : directory;
  make_real_directory(dir);   // under a run's --out: a planted link there is refused, never followed
  // The content's hash names the file, so the same failure saved twice is one file.
  const std::string text = to_json(file).dump();
  const auto path = dir / ("case-" + std::to_string(std::hash<std::string>{}(text) % 1000000007ull) + ".json");
  save_case_file(file, path);
  return "repro: mmasp eval " + path.string() + "   # " + origin;
}

}  // namespace mmasp::gen
