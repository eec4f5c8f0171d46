// A problem with what the user asked for (an option, a file, a device): mmasp prints it and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace mmasp {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// read(), whose std::runtime_error (a file named by `option` that cannot be used) becomes a UsageError naming it.
template <class Read>
auto read_for_option(const std::string& option, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const UsageError&) {
    throw;
  } catch (const std::runtime_error& error) {
    throw UsageError(option + ": " + error.what());
  }
}

}  // namespace mmasp
