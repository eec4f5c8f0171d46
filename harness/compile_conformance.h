// Compile conformance: does the toolkit's ptxas accept each form exactly where the catalog says it is legal, and
// reject the illegal neighbours that the negative set derives from the same rules?
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/ptx_emitter.h"
#include "harness/ptxas.h"
#include "oracle/instruction_space.h"

namespace mmasp {

enum class Expected { accept, reject };
std::string_view name(Expected expected);
std::optional<Expected> expected_named(std::string_view text);   // "accept", "reject"

// What ptxas did with a case, as the records keep it: accepted it, rejected it, or was not run on it (a PTX version
// newer than it knows).
enum class Observed { accept, reject, not_run };
std::string_view name(Observed observed);
std::optional<Observed> observed_named(std::string_view text);   // "accept", "reject", "not_run"
// Whether ptxas did what the catalog expects.
inline bool agrees(Expected expected, Observed observed) {
  return (expected == Expected::accept && observed == Observed::accept) ||
         (expected == Expected::reject && observed == Observed::reject);
}

// Where a compile case comes from: the catalog matrix (every form x selector x target), or the negative set (an
// illegal neighbour of a legal form, negative_set.cpp).
enum class CompileSet { catalog, negative };

struct CompileCase {
  std::string id;            // stable, glob-friendly: "<opcode>/sel=N@sm_XX" or "reject/<rule>/<detail>@sm_XX"
  CompileSet set = CompileSet::catalog;
  std::string rule;          // "catalog" for the catalog matrix, else the negative rule's name (shown in reports)
  std::string form;          // opcode of the catalog form the case derives from ("" when none)
  std::string why;           // the reason for the expectation, with its spec citation
  InstructionText instruction;
  PtxVersion version;
  Target target;
  Expected expected = Expected::accept;
};

// Every form x every selector x every target. Where the form is illegal on the target it is expected to be
// rejected, assembled at the lowest PTX version that both the form and the target know.
std::vector<CompileCase> catalog_cases(const std::vector<Form>& forms, const std::vector<Target>& targets);

// Illegal instructions derived from the catalog's own rules (negative_set.cpp).
std::vector<CompileCase> negative_cases(const std::vector<Form>& forms, const std::vector<Target>& targets);

enum class Verdict {
  agree,      // ptxas did what the catalog expects
  disagree,   // ptxas accepted what must be rejected, or rejected what must be accepted
  not_run,    // this ptxas cannot take the case at all (a PTX version newer than it knows)
};
std::string_view name(Verdict verdict);

struct CompileOutcome {
  CompileCase test;
  Verdict verdict = Verdict::not_run;
  bool accepted = false;
  Observed observed() const { return verdict == Verdict::not_run ? Observed::not_run : accepted ? Observed::accept : Observed::reject; }
  std::string diagnostics;
  std::string not_run_reason;
  bool from_cache = false;
  std::string ptx;           // kept for disagreements, so each can be reported with its exact PTX
};

struct CompileRun {
  PtxasInfo ptxas;
  std::vector<CompileOutcome> outcomes;
  double seconds = 0;
  size_t cache_hits = 0;
};

CompileRun run_compile_conformance(const Ptxas& ptxas, const std::vector<CompileCase>& cases,
                                   const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace mmasp
