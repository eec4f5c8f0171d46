// SHA-256 (FIPS 180-4), used to key the ptxas cache by content.
#pragma once

#include <string>
#include <string_view>

namespace mmasp {

std::string sha256_hex(std::string_view data);

}  // namespace mmasp
