#include "oracle/input_file.h"

#include <fstream>
#include <sstream>

namespace mmasp {

std::string read_input_file(const std::filesystem::path& path, uintmax_t max_bytes, const std::string& kind) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputFileError(path.string() + ": a directory, not " + kind);
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw InputFileError(path.string() + ": cannot open (" + error.message() + ")");
  if (size > max_bytes)
    throw InputFileError(path.string() + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                         " " + kind + " can be");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputFileError(path.string() + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace mmasp
