// A problem with what the user asked for (an option, a file, a device): mmasp prints it and exits 2.
#pragma once

#include <stdexcept>

namespace mmasp {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace mmasp
