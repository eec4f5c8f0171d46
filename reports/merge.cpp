#include "reports/merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "oracle/instruction_space.h"
#include "oracle/text.h"

namespace mmasp {
namespace {

// Where the unsharded run puts a result: forms in catalog order, selectors in the form's order, then special, ub,
// random (run/nightly.cpp runs a pair's suites in that order).
std::tuple<size_t, size_t, int> position(const std::string& opcode, int selector, std::optional<Suite> suite) {
  const auto& forms = instruction_space();
  size_t form_index = forms.size(), selector_index = 0;
  for (size_t f = 0; f < forms.size(); ++f)
    if (forms[f].opcode == opcode) {
      form_index = f;
      const auto& selectors = forms[f].selectors;
      selector_index = size_t(std::find(selectors.begin(), selectors.end(), selector) - selectors.begin());
      break;
    }
  const int suite_index = suite == Suite::special ? 0 : suite == Suite::undefined ? 1 : 2;
  return {form_index, selector_index, suite_index};
}

// "i/n" with 1 <= i <= n, digits only (what --shard accepts); nullopt for anything else, a merge's "merged k of n"
// included.
// The run's identity without what differs between the shards of one run by design: the shard itself, and the device
// (shards may run on several GPUs of one architecture, which is compared on its own).
nlohmann::json shared_identity(const RunRecord& run, const std::string& name) {
  if (run.run.identity.empty())
    throw MergeError(name + ": the run records no identity (made by an older mmasp): it cannot be shown to be a shard "
                     "of the same run");
  nlohmann::json identity;
  try {
    identity = nlohmann::json::parse(run.run.identity);
  } catch (const nlohmann::json::exception&) {
    throw MergeError(name + ": /run/identity is not a JSON object");
  }
  if (!identity.is_object()) throw MergeError(name + ": /run/identity is not a JSON object");
  for (const char* key : {"shard", "device"}) identity.erase(key);
  return identity;
}

std::string architecture_of(const RunRecord& run) {
  if (run.environment.emulated || !run.environment.device) return "the emulator";
  return "sm_" + std::to_string(run.environment.device->sm);
}

template <typename T, typename Key>
void sort_by_position(std::vector<T>& items, Key&& key) {
  std::stable_sort(items.begin(), items.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
}

}  // namespace

RunRecord merge_runs(const std::vector<RunRecord>& shards, const std::vector<std::string>& names, std::vector<int>* missing) {
  if (shards.empty()) throw MergeError("merge needs at least one run.json");
  const RunRecord& first = shards.front();
  RunRecord merged = first;
  merged.results.clear();
  merged.layouts.clear();
  merged.sass.clear();
  merged.compile_paths.clear();
  merged.run.notes.clear();
  merged.run.phase_seconds.clear();
  merged.run.seconds = 0;
  std::set<std::string> ids, notes_seen;
  std::set<int> shard_indices;
  int shard_count = -1;
  const nlohmann::json first_identity = shared_identity(first, names.front());
  for (size_t s = 0; s < shards.size(); ++s) {
    const RunRecord& shard = shards[s];
    const std::string& name = names.at(s);
    const auto same = [&](const auto& a, const auto& b, const char* what) {
      if (!(a == b)) throw MergeError(name + ": not a shard of the same run as " + names.front() + ": " + what + " differs");
    };
    same(shard.run.seed, first.run.seed, "the seed");
    same(shard.run.case_streams, first.run.case_streams, "the case streams");
    same(shard.run.mmasp_commit, first.run.mmasp_commit, "the mmasp commit");
    same(shard.run.budget_seconds, first.run.budget_seconds, "the budget");
    same(shard.run.ub, first.run.ub, "--ub");
    same(shard.run.model_tier, first.run.model_tier, "the model tier");
    same(shard.run.model_source, first.run.model_source, "the model source");
    same(shard.environment.backend, first.environment.backend, "the backend");
    same(shard.environment.toolkit, first.environment.toolkit, "the toolkit");
    same(architecture_of(shard), architecture_of(first), "the architecture");
    // Everything a --resume must repeat (cases, special cases, --emulate, an injected fault, filters, ...).
    const nlohmann::json identity = shared_identity(shard, name);
    for (const auto& [key, value] : first_identity.items())
      if (!identity.contains(key) || identity[key] != value)
        throw MergeError(name + ": not a shard of the same run as " + names.front() + ": its identity differs in \"" + key +
                         "\" (" + (identity.contains(key) ? identity[key].dump() : "absent") + " vs " + value.dump() + ")");
    for (const auto& [key, value] : identity.items())
      if (!first_identity.contains(key))
        throw MergeError(name + ": not a shard of the same run as " + names.front() + ": its identity has \"" + key +
                         "\", which the other lacks");
    const auto parsed = shard_named(shard.run.shard);
    if (!parsed)
      throw MergeError(name + ": /run/shard is \"" + printable(shard.run.shard) + "\", not i/n: only the run.json of "
                       "each shard (mmasp run --shard i/n) is merged, never a merge again");
    const auto [index, count] = *parsed;
    if (shard_count >= 0 && count != shard_count) throw MergeError(name + ": shard " + shard.run.shard + " of another split");
    shard_count = count;
    if (!shard_indices.insert(index).second) throw MergeError(name + ": shard " + shard.run.shard + " is given twice");
    for (const auto& result : shard.results) {
      if (!ids.insert(result.id).second) throw MergeError(name + ": result " + result.id + " is in two shards");
      merged.results.push_back(result);
    }
    for (const auto& l : shard.layouts) merged.layouts.push_back(l);
    for (const auto& x : shard.sass) merged.sass.push_back(x);
    for (const auto& p : shard.compile_paths) merged.compile_paths.push_back(p);
    for (const auto& note : shard.run.notes)
      if (notes_seen.insert(note).second) merged.run.notes.push_back(note);
    for (const auto& [phase, seconds] : shard.run.phase_seconds) merged.run.phase_seconds[phase] += seconds;
    merged.run.seconds = std::max(merged.run.seconds, shard.run.seconds);
    merged.run.started = std::min(merged.run.started, shard.run.started);
    merged.run.finished = std::max(merged.run.finished, shard.run.finished);
    if (shard.run.interrupted && !merged.run.interrupted) merged.run.interrupted = shard.run.interrupted;
    if (!merged.compile && shard.compile) merged.compile = shard.compile;
  }
  sort_by_position(merged.results, [](const ResultRecord& r) { return position(r.form, r.selector, r.suite); });
  sort_by_position(merged.layouts, [](const LayoutRecord& l) { return position(l.form, l.selector, std::nullopt); });
  sort_by_position(merged.sass, [](const SassRecord& x) { return position(x.form, x.selector, std::nullopt); });
  sort_by_position(merged.compile_paths, [](const CompilePathComparison& p) { return position(p.form, p.selector, std::nullopt); });
  const bool whole = shard_count > 0 && int(shard_indices.size()) == shard_count;
  if (missing) {
    missing->clear();
    for (int i = 1; i <= shard_count; ++i)
      if (!shard_indices.count(i)) missing->push_back(i);
  }
  merged.run.shard = whole ? "1/1" : "merged " + std::to_string(shard_indices.size()) + " of " + std::to_string(shard_count);
  nlohmann::json merged_identity = nlohmann::json::parse(first.run.identity);
  merged_identity["shard"] = merged.run.shard;
  merged.run.identity = merged_identity.dump();
  merged.run.command = "mmasp merge";
  for (const auto& name : names) merged.run.command += " " + name;
  if (!whole && shard_count > 0)
    merged.run.notes.push_back("merged " + std::to_string(shard_indices.size()) + " of " + std::to_string(shard_count) +
                               " shards: the results of the missing shards are not here");
  return merged;
}

}  // namespace mmasp
