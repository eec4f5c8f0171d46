// A run's folder (--out) and its journal: held for the run (FolderLock; a worker runs under its supervisor's hold),
// checked before anything is written (a link planted there, files mmasp did not write, an unfinished run a --resume
// could continue), and, on --resume, the interrupted run read back and replayed pair by pair. Everything the run
// streams goes through here: the journal (run/journal.h), results.jsonl and compile.json.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"
#include "run/folder_lock.h"
#include "run/journal.h"

namespace mmasp::run {

class RunFolder {
 public:
  // Holds and checks `out` (UsageError for what is refused; a folder the hold created is removed again). `say`: a
  // line for the person at the terminal.
  RunFolder(const std::filesystem::path& out, bool resume, bool force, bool under_supervisor,
            const std::function<void(const std::string&)>& say);

  const std::filesystem::path& path() const { return out_; }
  // --resume: what the interrupted run finished (nullopt for a fresh run).
  const std::optional<Journal>& interrupted() const { return interrupted_; }
  size_t finished_pairs() const { return interrupted_ ? interrupted_->pairs.size() : 0; }
  // Seconds the interrupted sessions ran: a resumed --budget run keeps its budget.
  double elapsed_before() const;

  // Starts the journal of a fresh run, or continues the interrupted one's — refused (UsageError, nothing changed)
  // when this run's identity or its first pairs differ from the interrupted run's. Fills in when the run started and
  // how often it was resumed.
  void open(const nlohmann::json& identity, RunInfo& info, const std::vector<std::pair<const Form*, int>>& pairs);

  void compile_done(const CompileRecord& record, const std::string& compile_json);
  void pair_done(const JournalPair& pair) { journal_->pair(pair); }
  void stream(const ResultRecord& result) { stream_->write(result); }

 private:
  void prepare(bool resume, bool force);
  void check_pairs(const std::vector<std::pair<const Form*, int>>& pairs) const;

  std::filesystem::path out_;
  std::function<void(const std::string&)> say_;
  std::optional<FolderLock> lock_;
  std::optional<Journal> interrupted_;
  std::optional<JournalWriter> journal_;
  std::optional<JsonLines> stream_;
};

// What `mmasp run` writes into --out. A fresh run replaces a finished run's; it refuses an --out holding an unfinished
// run (a --resume could continue it) or files not in this list, unless --force.
inline constexpr const char* kRunOutputs[] = {"run.json", "junit.xml", "summary.md", "report.html", "results.jsonl",
                                              "journal.jsonl", "compile.json", "failures", "deviations", "closest-to-bound",
                                              "intermittent"};

}  // namespace mmasp::run
