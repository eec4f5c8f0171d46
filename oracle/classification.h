// The one result taxonomy of mmasp (after dEQP's), and the judgement of an observed D against the reference.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/mma_case.h"
#include "oracle/reference.h"

namespace mmasp {

enum class Status {
  pass,              // exact, or within the tight bound
  quality_warning,   // inside the spec bound, outside the tight bound
  deviation,         // inside the spec bound, but not bit for bit what the device's verified model computes
  fail,              // outside the spec bound, wrong special value, or an integer mismatch
  intermittent,      // a failing or deviating case whose replay gave another D: the device is not deterministic
  ub_not_judged,     // the inputs are undefined behaviour: run in isolation, never judged
  not_supported,     // the form cannot run here (no such device, toolkit too old)
  crash,             // the run crashed
  timeout,           // the run did not finish
  waived,            // a failure excused by a waiver
};

inline constexpr std::array<Status, 10> kAllStatuses = {
    Status::pass,          Status::quality_warning, Status::deviation, Status::fail,    Status::intermittent,
    Status::ub_not_judged, Status::not_supported,   Status::crash,     Status::timeout, Status::waived};

// The one spelling of each status, in every report and in run.json: "Pass", "QualityWarning", "Fail", ...
std::string_view name(Status status);
std::optional<Status> status_named(std::string_view name);   // the inverse of name(); nullopt for anything else
bool is_failure(Status status);        // Fail, Deviation, Intermittent, Crash, Timeout: the run fails (exit 1)
bool is_skipped(Status status);        // NotSupported, UB-not-judged: never judged, so never passed
// How bad a status is: Pass < NotSupported < UB-not-judged < Waived < QualityWarning < Deviation < Fail
// < Intermittent < Timeout < Crash. worse() combines the cases of one result with it; `mmasp diff` ranks status changes with it.
int severity(Status status);
// The more severe of two statuses, for combining cases into a form's result.
Status worse(Status a, Status b);

struct ElementVerdict {
  Status status = Status::pass;
  int row = 0, col = 0;
  uint32_t observed = 0, expected = 0;   // codes; expected is D* rounded once to D's type
  double error = 0;                      // |D - D*|
  double error_ulps = 0;                 // error / ulp of D's type at max(|D*|, |D|)
  double error_relative_to_bound = 0;    // error / spec bound (1 = at the bound); 0 for exact results
  double spec_bound = 0, tight_bound = 0;
  std::string reason;                    // empty for exact results
};

struct CaseVerdict {
  Status status = Status::pass;
  std::vector<std::string> undefined_reasons;   // why the case is UB-not-judged
  ElementVerdict worst;                         // the element that decided the status (largest error among equals)
  int failing_elements = 0;
  int warning_elements = 0;
  std::vector<ElementVerdict> elements;         // M x N
};

// observed_d: M x N codes of D, row-major.
CaseVerdict classify(const MmaCase& test, const ReferenceResult& expected, std::span<const uint32_t> observed_d);
// Reference plus classification; undefined-behaviour cases are labelled without computing anything.
CaseVerdict judge(const MmaCase& test, std::span<const uint32_t> observed_d);

}  // namespace mmasp
