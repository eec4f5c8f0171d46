#include "run/journal.h"

#include <cmath>

#include <random>
#include <set>
#include <sstream>

#include "oracle/input_file.h"
#include "run/usage_error.h"

namespace mmasp::run {
namespace {

// A year: no run lasts longer, and a resumed --budget must never be handed more time than its run had.
constexpr double kMaxJournalSeconds = 366.0 * 24 * 3600;

using nlohmann::json;
namespace fs = std::filesystem;

json header_json(const Journal& journal) {
  return {{"journal", kJournalSchema}, {"run", journal.run_id},   {"identity", journal.identity},
          {"started", journal.started}, {"host", journal.host},   {"pid", journal.pid},
          {"command", journal.command}};
}

json pair_json(const JournalPair& pair) {
  json results = json::array();
  for (const auto& result : pair.results) results.push_back(to_json(result));
  json line = {{"form", pair.form}, {"selector", pair.selector}, {"elapsed_seconds", pair.elapsed_seconds}, {"results", results}};
  if (pair.layout) line["layout"] = to_json(*pair.layout);
  if (pair.compile_path) line["compile_path"] = to_json(*pair.compile_path);
  return {{"pair", line}};
}

JournalPair pair_from(const json& line) {
  if (!line.is_object() || !line.contains("form") || !line["form"].is_string() || !line.contains("selector") ||
      !line["selector"].is_number_integer() || !line.contains("results") || !line["results"].is_array())
    throw RunRecordError("/pair: an object with form, selector and results is expected");
  JournalPair pair;
  pair.form = line["form"].get<std::string>();
  if (!line["selector"].is_number_integer() || line["selector"].get<int64_t>() < 0 || line["selector"].get<int64_t>() > 3)
    throw RunRecordError("/pair/selector: 0 to 3 is expected");
  pair.selector = line["selector"].get<int>();
  // The run's wall time when the pair finished: a --budget resumed from it has the rest. A negative or absurd time
  // would hand the resumed run a budget it never had.
  if (line.contains("elapsed_seconds") &&
      (!line["elapsed_seconds"].is_number() || !std::isfinite(line["elapsed_seconds"].get<double>()) ||
       line["elapsed_seconds"].get<double>() < 0 || line["elapsed_seconds"].get<double>() > kMaxJournalSeconds))
    throw RunRecordError("/pair/elapsed_seconds: a number of seconds from 0 to " + std::to_string(int64_t(kMaxJournalSeconds)) +
                         " is expected");
  pair.elapsed_seconds = line.value("elapsed_seconds", 0.0);
  for (size_t i = 0; i < line["results"].size(); ++i) {
    try {
      pair.results.push_back(result_record_from_json(line["results"][i]));
    } catch (const RunRecordError& error) {
      throw RunRecordError("/pair/results/" + std::to_string(i) + error.what());
    }
  }
  if (line.contains("layout")) pair.layout = layout_record_from_json(line["layout"]);
  if (line.contains("compile_path")) pair.compile_path = compile_path_from_json(line["compile_path"]);
  return pair;
}

// A pair holds one result per suite it ran, each its own: special and random always (NotSupported ones where the
// backend cannot run the form), ub exactly when the run has --ub and the pair ran. Anything else — another pair's
// result, a suite twice, a suite missing — would make a resumed run.json differ from the uninterrupted one.
void check_pair_results(const JournalPair& pair, const json& identity) {
  std::set<Suite> suites;
  bool not_supported = false;
  for (size_t i = 0; i < pair.results.size(); ++i) {
    const ResultRecord& result = pair.results[i];
    const std::string at = "/pair/results/" + std::to_string(i);
    if (result.form != pair.form || result.selector != pair.selector)
      throw RunRecordError(at + ": a result of " + result.form + " sel=" + std::to_string(result.selector) +
                           " in the line of " + pair.form + " sel=" + std::to_string(pair.selector));
    const std::string suite(name(result.suite));
    if (result.id != result_id(pair.form, pair.selector, suite))
      throw RunRecordError(at + "/id: '" + result.id + "' is not the id of this pair's " + suite + " suite");
    if (!suites.insert(result.suite).second) throw RunRecordError(at + ": a second " + suite + " result for this pair");
    not_supported |= result.status == Status::not_supported;
  }
  const bool ub = identity.is_object() && identity.value("ub", false);
  for (Suite suite : {Suite::special, Suite::random})
    if (!suites.count(suite)) throw RunRecordError("/pair/results: the pair's " + std::string(name(suite)) + " result is missing");
  if (suites.count(Suite::undefined) && !ub) throw RunRecordError("/pair/results: a ub result in a run without --ub");
  if (ub && !not_supported && !suites.count(Suite::undefined))
    throw RunRecordError("/pair/results: the pair's ub result is missing (the run has --ub)");
}

}  // namespace

std::string new_run_id() {
  std::random_device source;
  const uint64_t bits = (uint64_t(source()) << 32) ^ uint64_t(source());
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(bits));
  return text;
}

Journal read_journal(const fs::path& path) {
  if (!fs::exists(path)) throw UsageError("--resume: no " + path.string() + " (nothing to resume: was the run started with this --out?)");
  try {
    return parse_journal(read_input_file(path, kMaxRunFileBytes, "a journal"), path);
  } catch (const InputFileError& error) {
    throw UsageError(error.what());
  }
}

std::optional<Journal> read_journal_header(const fs::path& path) {
  try {
    const std::string content = read_input_file(path, kMaxRunFileBytes, "a journal");
    const std::string first = content.substr(0, content.find('\n'));
    return parse_journal(first + "\n", path);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Journal parse_journal(const std::string& content, const fs::path& path) {
  std::vector<std::string> lines;
  std::istringstream in(content);
  for (std::string text; std::getline(in, text);) lines.push_back(text);
  Journal journal;
  std::set<std::pair<std::string, int>> pairs_seen;
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string where = path.string() + ":" + std::to_string(n + 1) + ": ";
    json line;
    try {
      line = parse_json_input(lines[n], path.string() + ":" + std::to_string(n + 1));
    } catch (const InputFileError& error) {
      // The write a kill interrupted: only ever the last line, and only as a line cut short (a line that is whole
      // but refused — a duplicate key, nesting too deep — is an error wherever it is).
      const bool cut_short = std::string(error.what()).find("ends early") != std::string::npos;
      if (cut_short && n + 1 == lines.size() && n > 0) {
        journal.dropped_cut_off_line = true;
        break;
      }
      throw UsageError(std::string(error.what()) + (cut_short ? " (a journal is only ever cut off at its end)" : ""));
    }
    if (n == 0) {
      if (!line.is_object() || line.value("journal", json()) != kJournalSchema || !line.contains("identity") ||
          !line["identity"].is_object() || !line.contains("run") || !line["run"].is_string() ||
          line["run"].get<std::string>().empty())
        throw UsageError(where + "not an mmasp journal (\"journal\": \"" + std::string(kJournalSchema) +
                         "\", a run id and an identity are expected; a journal of an older mmasp cannot be resumed)");
      journal.run_id = line["run"].get<std::string>();
      journal.identity = line["identity"];
      for (const auto& [key, target] : {std::pair{"started", &journal.started}, std::pair{"host", &journal.host},
                                        std::pair{"command", &journal.command}}) {
        if (line.contains(key) && !line[key].is_string()) throw UsageError(where + "/" + key + ": a string is expected");
        *target = line.value(key, "");
      }
      if (line.contains("pid") && !line["pid"].is_number_integer()) throw UsageError(where + "/pid: a whole number is expected");
      journal.pid = line.value("pid", 0L);
      continue;
    }
    try {
      if (!line.is_object() || !line.contains("run") || !line["run"].is_string())
        throw RunRecordError("/run: every line carries its run's id");
      if (line["run"].get<std::string>() != journal.run_id)
        throw RunRecordError("/run: a line of another run (" + printable(line["run"].get<std::string>()) + "; this journal's "
                             "run is " + journal.run_id + "): a journal holds the lines of one run only");
      line.erase("run");
      if (line.size() != (line.contains("compile_matrix") ? 2u : 1u))
        throw RunRecordError("one of resumed, compile or pair is expected");
      if (line.contains("resumed")) {
        if (!line["resumed"].is_string()) throw RunRecordError("/resumed: a time is expected");
        journal.resumed.push_back(line["resumed"].get<std::string>());
      } else if (line.contains("compile")) {
        if (journal.compile) throw RunRecordError("/compile: compile conformance is given twice");
        journal.compile = compile_record_from_json(line);
      } else if (line.contains("pair")) {
        JournalPair pair = pair_from(line["pair"]);
        check_pair_results(pair, journal.identity);
        if (!pairs_seen.insert({pair.form, pair.selector}).second)
          throw RunRecordError("/pair: " + pair.form + " sel=" + std::to_string(pair.selector) + " is given twice");
        journal.pairs.push_back(std::move(pair));
      } else {
        throw RunRecordError("unknown line: one of resumed, compile or pair is expected");
      }
    } catch (const RunRecordError& error) {
      throw UsageError(where + error.what());
    } catch (const json::exception& error) {
      throw UsageError(where + printable(error.what()));
    }
  }
  if (lines.empty()) throw UsageError(path.string() + ": empty (the run was killed before it began?)");
  return journal;
}

std::string identity_difference(const json& interrupted, const json& now) {
  for (const auto& [key, value] : now.items()) {
    const json was = interrupted.contains(key) ? interrupted[key] : json();
    if (was != value) return key + ": " + value.dump() + " now, " + (was.is_null() ? "absent" : was.dump()) + " in the interrupted run";
  }
  for (const auto& [key, value] : interrupted.items())
    if (!now.contains(key)) return key + ": absent now, " + value.dump() + " in the interrupted run";
  return "";
}

JournalWriter::JournalWriter(const fs::path& path, const Journal& content) : run_id_(content.run_id) {
  // The whole journal afresh, renamed over the old one: never half rewritten, never written through a planted link.
  std::string text = header_json(content).dump() + "\n";
  for (const auto& when : content.resumed) text += json{{"run", run_id_}, {"resumed", when}}.dump() + "\n";
  if (content.compile) {
    json compile = to_json(*content.compile);
    compile["run"] = run_id_;
    text += compile.dump() + "\n";
  }
  for (const auto& pair : content.pairs) {
    json line = pair_json(pair);
    line["run"] = run_id_;
    text += line.dump() + "\n";
  }
  write_file_atomically(path, text);
  out_.emplace(path, AppendFile::Start::keep);
}

void JournalWriter::line(json value) {
  value["run"] = run_id_;
  out_->write(value.dump() + "\n");
}

void JournalWriter::resumed(const std::string& when) { line({{"resumed", when}}); }
void JournalWriter::compile(const CompileRecord& compile) { line(to_json(compile)); }
void JournalWriter::pair(const JournalPair& pair) { line(pair_json(pair)); }

}  // namespace mmasp::run
