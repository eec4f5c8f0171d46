// The instruction space as JSON (`mmasp list --json`) and as a table for people.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "oracle/instruction_space.h"

namespace mmasp {

nlohmann::json to_json(const Form& form);
// {"schema": "mmasp-catalog/1", "count": N, "families": {...counts...}, "forms": [...]}
nlohmann::json catalog_json(const std::vector<const Form*>& forms);
std::string catalog_table(const std::vector<const Form*>& forms);

}  // namespace mmasp
