// <out>/journal.jsonl: what a run has finished, so that an interrupted run (a signal, kill -9, a lost machine) can be
// continued by `mmasp run --resume` and end with the same run.json an uninterrupted run would have written.
//
// One JSON object per line, appended and flushed as each part finishes:
//   {"journal": "mmasp-journal/2", "run": ID, "identity": {...}, "started", "host", "pid", "command"}   always first
//   {"run": ID, "resumed": "<time>"}                        each time the run is resumed
//   {"run": ID, "compile": {...}, "compile_matrix": {...}}  compile conformance, once it finished
//   {"run": ID, "pair": {"form", "selector", "elapsed_seconds", "results": [...], "layout"?, "compile_path"?}}
// A pair is written only when all of it finished: a pair cut short by a signal is run again on resume. Only the last
// line may be cut off (the write a kill interrupted); it is dropped. Anything else malformed is an error that names the
// file and line. The identity is everything that decides the results (options, seed, case streams, mmasp commit,
// backend and device): a resume under another identity is refused, naming the first difference. ID is drawn afresh by
// each run and carried by every line, so a line of another run (journals concatenated or copied together) is refused
// instead of being taken as this run's; a pair line must hold exactly its own results (one per suite the identity
// implies), and a pair is given once.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracle/output_file.h"
#include "reports/run_record.h"

namespace mmasp::run {

inline constexpr const char* kJournalSchema = "mmasp-journal/2";
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
  std::string run_id;       // new_run_id(): this run's, on every line
  nlohmann::json identity;
  std::string started, host, command;
  long pid = 0;             // of the process that started (or last resumed) the run: named when --out is in use
  std::vector<std::string> resumed;   // when each resume began
  std::optional<CompileRecord> compile;
  std::vector<JournalPair> pairs;
  bool dropped_cut_off_line = false;
};

// A fresh run's id: 16 hex digits from the system's random source.
std::string new_run_id();

// Throws UsageError naming the file and line of what is wrong.
Journal read_journal(const std::filesystem::path& path);
// The header line alone (who holds a run folder), or nullopt when there is none that reads.
std::optional<Journal> read_journal_header(const std::filesystem::path& path);
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
  void line(nlohmann::json value);
  std::string run_id_;
  std::optional<AppendFile> out_;
};

}  // namespace mmasp::run
