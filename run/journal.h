// <out>/journal.jsonl: what a run has finished, so that an interrupted run (a signal, kill -9, a lost machine) can be
// continued by `mmasp run --resume` and end with the same run.json an uninterrupted run would have written.
//
// One JSON object per line, appended and flushed as each part finishes:
//   {"journal": "mmasp-journal/1", "identity": {...}, "started": ..., "host": ..., "command": ...}   always first
//   {"resumed": "<time>"}                                   each time the run is resumed
//   {"compile": {...}, "compile_matrix": {...}}             compile conformance, once it finished
//   {"pair": {"form", "selector", "elapsed_seconds", "results": [...], "layout"?, "compile_path"?}}   per finished pair
// A pair is written only when all of it finished: a pair cut short by a signal is run again on resume. Only the last
// line may be cut off (the write a kill interrupted); it is dropped. Anything else malformed is an error that names the
// file and line. The identity is everything that decides the results (options, seed, case streams, mmasp commit,
// backend and device): a resume under another identity is refused, naming the first difference.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/run_record.h"

namespace mmasp::run {

inline constexpr const char* kJournalSchema = "mmasp-journal/1";
inline constexpr const char* kJournalFile = "journal.jsonl";

struct JournalPair {
  std::string form;
  int selector = 0;
  double elapsed_seconds = 0;   // since the run began, over all its sessions: a resumed --budget run keeps its budget
  std::vector<ResultRecord> results;
  std::optional<LayoutRecord> layout;
  std::optional<CompilePathComparison> compile_path;
};

struct Journal {
  nlohmann::json identity;
  std::string started, host, command;
  std::vector<std::string> resumed;   // when each resume began
  std::optional<CompileRecord> compile;
  std::vector<JournalPair> pairs;
  bool dropped_cut_off_line = false;
};

// Throws UsageError naming the file and line of what is wrong.
Journal read_journal(const std::filesystem::path& path);
Journal parse_journal(const std::string& text, const std::filesystem::path& path);   // `path` names it in errors

// "" when equal, else the first key whose value differs: "seed: 2 now, 1 in the interrupted run".
std::string identity_difference(const nlohmann::json& interrupted, const nlohmann::json& now);

class JournalWriter {
 public:
  // Writes `content` (a fresh run: the header alone; a resumed one: everything kept, without a cut-off line) to a
  // temporary file and renames it over `path`, so the journal is never half rewritten; then appends.
  JournalWriter(const std::filesystem::path& path, const Journal& content);
  void resumed(const std::string& when);
  void compile(const CompileRecord& compile);
  void pair(const JournalPair& pair);

 private:
  void line(const nlohmann::json& value);
  std::filesystem::path path_;
  std::ofstream out_;
};

}  // namespace mmasp::run
