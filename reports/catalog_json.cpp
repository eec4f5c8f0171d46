#include "reports/catalog_json.h"

#include <iomanip>
#include <map>
#include <sstream>

namespace mmasp {

nlohmann::json to_json(const Form& form) {
  nlohmann::json types = {
      {"a", ptx_name(form.a)}, {"b", ptx_name(form.b)}, {"c", ptx_name(form.c)}, {"d", ptx_name(form.d)}};
  types["scale"] = form.stype ? nlohmann::json(ptx_name(*form.stype)) : nlohmann::json(nullptr);
  return {
      {"opcode", form.opcode},
      {"family", form.family},
      {"variant", ptx_qualifier(form.variant)},
      {"shape", {{"m", form.shape.m}, {"n", form.shape.n}, {"k", form.shape.k}}},
      {"kind", form.kind == Kind::none ? nlohmann::json(nullptr) : nlohmann::json(ptx_qualifier(form.kind))},
      {"block_scale", form.block_scale},
      {"scale_vec", form.block_scale ? nlohmann::json(ptx_qualifier(form.scale_vec)) : nlohmann::json(nullptr)},
      {"scale_vec_spelled", form.scale_vec_spelled},
      {"satfinite", form.satfinite},
      {"types", types},
      {"container_bits", {{"a", form.a_container_bits}, {"b", form.b_container_bits}}},
      {"registers",
       {{"a", form.regs.a}, {"b", form.regs.b}, {"c", form.regs.c}, {"d", form.regs.d},
        {"e", 1}, {"scale_a", form.regs.scale_a}, {"scale_b", form.regs.scale_b}}},
      {"sparsity", name(form.sparsity)},
      {"chunk_width", form.chunk_width},
      {"selectors", form.selectors},
      {"min_ptx", form.min_ptx.str()},
      {"min_target", form.target.describe()},
      {"spec_section", form.spec_section},
  };
}

nlohmann::json catalog_json(const std::vector<const Form*>& forms) {
  nlohmann::json list = nlohmann::json::array();
  std::map<std::string, int> families;
  int with_selectors = 0;
  for (const Form* form : forms) {
    list.push_back(to_json(*form));
    families[form->family]++;
    with_selectors += int(form->selectors.size());
  }
  return {{"schema", "mmasp-catalog/1"},
          {"count", forms.size()},
          {"count_with_selectors", with_selectors},
          {"families", families},
          {"forms", list}};
}

std::string catalog_table(const std::vector<const Form*>& forms) {
  std::ostringstream out;
  out << std::left << std::setw(112) << "opcode" << std::setw(10) << "regs" << std::setw(15) << "sparsity"
      << std::setw(8) << "sel" << std::setw(6) << "ptx" << "target\n";
  for (const Form* form : forms) {
    std::string regs = std::to_string(form->regs.a) + "/" + std::to_string(form->regs.b) + "/" +
                       std::to_string(form->regs.c) + "/" + std::to_string(form->regs.d);
    std::string selectors = form->selectors.size() == 1 ? "0" : "0.." + std::to_string(form->selectors.back());
    out << std::setw(112) << form->opcode << std::setw(10) << regs << std::setw(15) << name(form->sparsity)
        << std::setw(8) << selectors << std::setw(6) << form->min_ptx.str() << form->target.describe() << "\n";
  }
  out << forms.size() << " forms (regs: a/b/c/d .b32 registers per lane)\n";
  return out.str();
}

}  // namespace mmasp
