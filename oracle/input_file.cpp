#include "oracle/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace mmasp {
namespace {

using nlohmann::json;

// Closes a descriptor on every path out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// Builds the document from the parser's events (as nlohmann's own DOM builder does), refusing on the way what a
// plain json::parse would accept silently or fail on without a name. Every refusal records the JSON pointer of the
// value it concerns; the builder then stops the parse by returning false.
class StrictBuilder : public nlohmann::json_sax<json> {
 public:
  explicit StrictBuilder(std::string_view text) : text_(text) {}

  json root;
  std::string problem;

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool value) override { return add(json(value)); }
  bool number_integer(number_integer_t value) override { return add(json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return add(json(value)); }
  bool number_float(number_float_t value, const string_t& spelled) override {
    // strtod reads 1e-400 as 0 and 1e400 as inf: a value other than the one written. Only the text tells.
    const std::string mantissa = spelled.substr(0, spelled.find_first_of("eE"));
    const bool nonzero = mantissa.find_first_of("123456789") != std::string::npos;
    if (!std::isfinite(value) || (value == 0 && nonzero))
      return refuse(pointer() + ": the number " + spelled + " is outside what a double holds (it would be read as " +
                    (std::isfinite(value) ? "0" : "infinity") + ")");
    return add(json(value));
  }
  bool string(string_t& value) override { return add(json(std::move(value))); }
  bool binary(binary_t& value) override { return add(json::binary(std::move(value))); }
  bool start_object(std::size_t) override { return open(json::object(), false); }
  bool key(string_t& name) override {
    Level& level = levels_.back();
    if (level.value->contains(name)) {
      level.key = name;
      return refuse(pointer() + ": the key \"" + printable(name) + "\" is given twice in one object (which one counts "
                    "would be the reader's guess)");
    }
    level.key = std::move(name);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array(), true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override {
    if (!problem.empty()) return false;
    const std::string what = error.what();
    if (what.find("number overflow") != std::string::npos) {
      // The parser's own words would be "[json.exception.out_of_range.406] number overflow parsing '1e400'".
      const size_t quote = what.find('\'');
      const std::string number = quote == std::string::npos ? "" : what.substr(quote + 1, what.rfind('\'') - quote - 1);
      problem = pointer() + ": the number " + printable(number) + " is outside what a double holds (it would be "
                "read as infinity)";
    } else if (position >= text_.size()) {
      problem = "ends early (truncated?) at byte " + std::to_string(position);
    } else {
      // nlohmann's message quotes the bytes it read: shown printable, without its "[json.exception...]" prefix.
      const size_t colon = what.find(": ");
      problem = "not valid JSON at byte " + std::to_string(position) + " (" +
                printable(colon == std::string::npos ? what : what.substr(colon + 2)) + ")";
    }
    return false;
  }

 private:
  struct Level {
    json* value;
    bool array;
    std::string key;
  };

  bool refuse(std::string why) {
    if (problem.empty()) problem = std::move(why);
    return false;
  }
  // Where the next value goes; the value itself, for a container that is then entered.
  json* place(json value) {
    if (levels_.empty()) {
      root = std::move(value);
      return &root;
    }
    Level& level = levels_.back();
    if (level.array) {
      level.value->push_back(std::move(value));
      return &level.value->back();
    }
    return &((*level.value)[level.key] = std::move(value));
  }
  bool add(json value) {
    place(std::move(value));
    return true;
  }
  bool open(json container, bool array) {
    if (int(levels_.size()) >= kMaxJsonDepth)
      return refuse(pointer() + ": nested deeper than " + std::to_string(kMaxJsonDepth) +
                    " levels (no file mmasp reads needs that many)");
    json* value = place(std::move(container));
    levels_.push_back({value, array, ""});
    return true;
  }
  bool close() {
    levels_.pop_back();
    return true;
  }
  // The pointer of the container being filled plus the key or index of the value being read.
  std::string pointer() const {
    std::string out;
    for (const Level& level : levels_) {
      out += "/";
      if (&level != &levels_.back()) {
        out += level.array ? std::to_string(level.value->size() - 1) : escaped(level.key);
      } else {
        out += level.array ? std::to_string(level.value->size()) : escaped(level.key);
      }
    }
    return out.empty() ? "/" : out;
  }
  // RFC 6901: "~" and "/" in a key are written "~0" and "~1"; control characters are shown printable.
  static std::string escaped(const std::string& key) {
    std::string out;
    for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return printable(out);
  }

  std::string_view text_;
  std::vector<Level> levels_;
};

}  // namespace

std::string read_input_file(const std::filesystem::path& path, uintmax_t max_bytes, const std::string& kind) {
  // Opened without waiting (O_NONBLOCK: a FIFO would otherwise block until a writer came) and checked to be a regular
  // file before a byte is read.
  Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    const int error = errno;
    std::error_code ignored;
    if (error == EISDIR || std::filesystem::is_directory(path, ignored))
      throw InputFileError(path.string() + ": a directory, not " + kind);
    throw InputFileError(path.string() + ": cannot open (" + std::strerror(error) + ")");
  }
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) throw InputFileError(path.string() + ": cannot open (" + std::strerror(errno) + ")");
  if (S_ISDIR(status.st_mode)) throw InputFileError(path.string() + ": a directory, not " + kind);
  if (!S_ISREG(status.st_mode)) throw InputFileError(path.string() + ": not a regular file (a FIFO, socket or device), not " + kind);
  const auto size = uintmax_t(status.st_size);
  if (size > max_bytes)
    throw InputFileError(path.string() + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                         " " + kind + " can be");
  // Back to blocking reads for a regular file; read until the end (the file may have been shorter or longer than
  // stat said: never more than the limit).
  ::fcntl(file.fd, F_SETFL, ::fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(file.fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputFileError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
    }
    if (got == 0) break;
    text.append(buffer, size_t(got));
    if (text.size() > max_bytes)
      throw InputFileError(path.string() + ": more than the " + std::to_string(max_bytes) + " bytes " + kind + " can be");
  }
  return text;
}

json parse_json_input(std::string_view text, const std::string& source) {
  StrictBuilder builder(text);
  const bool parsed = json::sax_parse(text.begin(), text.end(), &builder, nlohmann::detail::input_format_t::json, true);
  if (!parsed || !builder.problem.empty())
    throw InputFileError(source + ": " + (builder.problem.empty() ? std::string("not valid JSON") : builder.problem));
  return std::move(builder.root);
}

json read_json_file(const std::filesystem::path& path, uintmax_t max_bytes, const std::string& kind) {
  return parse_json_input(read_input_file(path, max_bytes, kind), path.string());
}

}  // namespace mmasp
