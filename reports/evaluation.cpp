#include "reports/evaluation.h"

#include <cmath>
#include <sstream>

#include "oracle/number_format.h"
#include "oracle/text.h"
#include "oracle/tolerance.h"

namespace mmasp {
namespace {

void print_matrix(std::ostringstream& out, const Form& form, std::span<const uint32_t> d) {
  const int n = form.shape.n;
  for (int r = 0; r < form.shape.m; ++r) {
    out << "  row " << (r < 10 ? " " : "") << r << ":";
    for (int c = 0; c < n; ++c) out << "  " << describe_value(form.d, d[size_t(r * n + c)]);
    out << "\n";
  }
}

}  // namespace

std::string describe_value(ElemType type, uint32_t code) {
  if (!info(type).is_float) return std::to_string(decode_integer(type, code));
  auto value = decode(type, code);
  if (!value) return "undefined [" + hex_code(code) + "]";
  return nine_digits(value->to_double()) + " [" + hex_code(code) + "]";
}

std::string format_evaluation(const MmaCase& test, const Evaluation& evaluation,
                              std::optional<std::span<const uint32_t>> observed_d) {
  const Form& form = *test.form;
  std::ostringstream out;
  out << "form      " << form.opcode << "\n";
  out << "family    " << form.family << ", " << name(form.sparsity) << " sparsity, selector " << test.selector << "\n";
  if (!evaluation.undefined_reasons.empty()) {
    out << "UB: not judged\n";
    for (const auto& reason : evaluation.undefined_reasons) out << "  " << reason << "\n";
  }
  if (evaluation.expected && evaluation.undefined_reasons.empty()) {
    std::vector<uint32_t> codes;
    for (const auto& e : evaluation.expected->d) codes.push_back(e.rounded_code);
    out << "expected D (" << (form.is_integer() ? std::string(form.satfinite ? "exact, clamped by .satfinite" : "exact, wrapped modulo 2^32")
                                                : "D* = A.B + C exactly, rounded once to " + std::string(ptx_name(form.d)))
        << "):\n";
    print_matrix(out, form, codes);
    if (!form.is_integer()) {
      const FloatTolerance t = tolerance_for(form);
      out << "bounds on |D - D*| (accumulation at least " << ptx_name(t.accumulation) << ", docs/tolerances.md):\n";
      int shown = 0;
      for (size_t i = 0; i < evaluation.expected->d.size(); ++i) {
        const ExpectedElement& e = evaluation.expected->d[i];
        if (e.nonzero_products == 0 && e.kind == ExpectedElement::Kind::finite) continue;
        ++shown;
        const int r = int(i) / form.shape.n, c = int(i) % form.shape.n;
        out << "  [" << r << "][" << c << "] ";
        if (e.kind != ExpectedElement::Kind::finite) {
          out << (e.kind == ExpectedElement::Kind::nan ? "NaN" : e.negative ? "-Inf" : "+Inf") << " (special-value rule)\n";
          continue;
        }
        ElementBounds b = element_bounds(t, e.nonzero_products, e.magnitude_sum, std::fabs(e.exact_double), e.subnormal_allowance);
        out << "D*=" << nine_digits(e.exact_double) << " n=" << e.nonzero_products << " S=" << nine_digits(e.magnitude_sum)
            << " tight=" << nine_digits(b.tight) << " spec=" << nine_digits(b.spec) << "\n";
      }
      const size_t quiet = evaluation.expected->d.size() - size_t(shown);
      if (quiet) out << "  (" << quiet << " elements with no non-zero product must equal C exactly)\n";
    }
  }
  if (observed_d) {
    out << "observed D:\n";
    print_matrix(out, form, *observed_d);
  }
  if (evaluation.model_d) {
    out << "model D (" << evaluation.model << "):\n";
    print_matrix(out, form, *evaluation.model_d);
    if (observed_d && evaluation.deviating_elements.empty()) out << "model tier: every element is what the model computes\n";
    for (size_t shown = 0; shown < evaluation.deviating_elements.size() && shown < 8; ++shown) {
      const size_t e = evaluation.deviating_elements[shown];
      const uint32_t o = (*observed_d)[e], m = (*evaluation.model_d)[e];
      out << "model tier: [" << e / size_t(form.shape.n) << "][" << e % size_t(form.shape.n) << "] observed "
          << describe_value(form.d, o) << ", model " << describe_value(form.d, m) << ", differing bits "
          << hex_code(o ^ m) << "\n";
    }
    if (evaluation.deviating_elements.size() > 8)
      out << "model tier: ... " << evaluation.deviating_elements.size() << " elements differ in all\n";
  }
  if (evaluation.verdict) {
    const CaseVerdict& v = *evaluation.verdict;
    out << "classification: " << name(v.status);
    if (v.status != Status::ub_not_judged) {
      out << " (" << v.elements.size() << " elements: " << v.failing_elements << " Fail, " << v.warning_elements
          << " QualityWarning)\n";
      const ElementVerdict& w = v.worst;
      out << "worst element [" << w.row << "][" << w.col << "]: expected " << describe_value(form.d, w.expected)
          << ", observed " << describe_value(form.d, w.observed);
      if (!form.is_integer()) out << ", error " << nine_digits(w.error) << " (" << nine_digits(w.error_ulps) << " ulp)";
      if (!w.reason.empty()) out << "\n  " << w.reason;
      out << "\n";
      if (!form.is_integer()) {
        const ElementVerdict* closest = nullptr;
        for (const auto& e : v.elements)
          if (!closest || e.error_relative_to_bound > closest->error_relative_to_bound) closest = &e;
        if (closest && closest->error_relative_to_bound > 0)
          out << "closest to its spec bound: [" << closest->row << "][" << closest->col << "] error " << nine_digits(closest->error)
              << " = " << nine_digits(closest->error_relative_to_bound) << " of the bound " << nine_digits(closest->spec_bound)
              << " (tight " << nine_digits(closest->tight_bound) << ")\n";
      }
    } else {
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace mmasp
