#include "run/run_folder.h"

#include <unistd.h>

#include <algorithm>
#include <ctime>

#include "oracle/output_file.h"
#include "run/usage_error.h"

namespace fs = std::filesystem;

namespace mmasp::run {
namespace {

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

bool is_ours(const std::string& file) {
  return std::find_if(std::begin(kRunOutputs), std::end(kRunOutputs), [&](const char* ours) { return file == ours; }) !=
         std::end(kRunOutputs);
}

}  // namespace

RunFolder::RunFolder(const fs::path& out, bool resume, bool force, bool under_supervisor,
                     const std::function<void(const std::string&)>& say)
    : out_(out), say_(say) {
  if (!under_supervisor) lock_.emplace(out_, "--out");
  try {
    prepare(resume, force);
  } catch (const UsageError&) {
    if (lock_) lock_->remove_if_unused();   // refused over --out itself: a folder the hold created goes again
    throw;
  }
}

double RunFolder::elapsed_before() const {
  return interrupted_ && !interrupted_->pairs.empty() ? interrupted_->pairs.back().elapsed_seconds : 0.0;
}

void RunFolder::prepare(bool resume, bool force) {
  const bool exists = fs::exists(out_);
  if (exists && !fs::is_directory(out_)) throw UsageError("--out " + out_.string() + ": not a directory");
  // mmasp writes its files without following links (oracle/output_file.h); a link planted among them is refused here,
  // before anything is read or written, rather than discovered by a failing write in the middle of the run.
  if (exists && !force)
    for (const auto& entry : fs::directory_iterator(out_))
      if (entry.is_symlink())
        throw UsageError("--out " + out_.string() + ": " + entry.path().filename().string() +
                         " is a symbolic link; mmasp never writes through one (remove it, or give --force to replace it)");
  if (resume) {
    interrupted_ = read_journal(out_ / kJournalFile);
    return;
  }
  if (!exists || fs::is_empty(out_)) return;
  // A finished run's reports are replaced (a nightly job writes into the same --out every night); an unfinished run
  // (one a --resume could continue) or files mmasp did not write are never removed without --force.
  std::string strangers;
  for (const auto& entry : fs::directory_iterator(out_))
    if (!is_ours(entry.path().filename().string()))
      strangers += (strangers.empty() ? "" : ", ") + entry.path().filename().string();
  // An unfinished run is one a --resume could continue: a journal without a finished run.json beside it. Reports
  // alone (`mmasp compile --json out/compile.json`, `mmasp report --out out`) are no run, and are replaced.
  bool finished = true;
  if (fs::exists(out_ / kJournalFile)) {
    try {
      finished = !load_run_record(out_ / "run.json").run.interrupted;
    } catch (const std::exception&) {
      finished = false;
    }
  }
  if (!force && !strangers.empty())
    throw UsageError("--out " + out_.string() + " holds files mmasp did not write (" + strangers +
                     "): give a new or empty directory, or --force to write beside them");
  if (!force && !finished)
    throw UsageError("--out " + out_.string() + " holds an unfinished run: give --resume to continue it (with the "
                     "same options), --force to replace it, or another --out");
  if (say_) say_("mmasp run: replacing the reports of the earlier run in " + out_.string());
  for (const char* output : kRunOutputs) fs::remove_all(out_ / output);
}

// The interrupted run's pairs are this run's first pairs, in order: checked before the journal is rewritten.
void RunFolder::check_pairs(const std::vector<std::pair<const Form*, int>>& pairs) const {
  const auto& done = interrupted_->pairs;
  if (done.size() > pairs.size()) throw UsageError("--resume: the journal has more pairs than this run selects");
  for (size_t p = 0; p < done.size(); ++p)
    if (done[p].form != pairs[p].first->opcode || done[p].selector != pairs[p].second)
      throw UsageError("--resume: the journal's pair " + std::to_string(p + 1) + " is " + done[p].form + " sel=" +
                       std::to_string(done[p].selector) + ", this run's is " + pairs[p].first->opcode + " sel=" +
                       std::to_string(pairs[p].second));
}

void RunFolder::open(const nlohmann::json& identity, RunInfo& info, const std::vector<std::pair<const Form*, int>>& pairs) {
  try {
    if (interrupted_) {
      if (const std::string difference = identity_difference(interrupted_->identity, identity); !difference.empty())
        throw UsageError("--resume: this run differs from the interrupted one in " + difference +
                         ". The interrupted run was: " + interrupted_->command);
      check_pairs(pairs);
    }
  } catch (const UsageError&) {
    if (lock_) lock_->remove_if_unused();
    throw;
  }
  fs::create_directories(out_);
  if (interrupted_) {
    info.started = interrupted_->started;
    info.resumed = interrupted_->resumed.size() + 1;
    // Nothing in --out changes before the identity is checked. Then the interrupted session's reports go: a report
    // never sits beside results newer than it.
    for (const char* report : kReportFiles) fs::remove(out_ / report);
    interrupted_->pid = long(getpid());   // the holder a second run into this --out is told about
    journal_.emplace(out_ / kJournalFile, *interrupted_);
    journal_->resumed(now_iso());
    // results.jsonl is written again from the journal as the finished pairs are taken over: it always holds exactly
    // the finished pairs' results.
    stream_.emplace(out_ / "results.jsonl");
    if (say_)
      say_("mmasp run: resuming " + out_.string() + ": " + std::to_string(interrupted_->pairs.size()) +
           " form x selector pairs were finished" +
           (interrupted_->dropped_cut_off_line ? " (a cut-off last journal line was dropped)" : ""));
    return;
  }
  info.started = now_iso();
  Journal fresh;
  fresh.run_id = new_run_id();
  fresh.pid = long(getpid());
  fresh.identity = identity;
  fresh.started = info.started;
  fresh.host = info.host;
  fresh.command = info.command;
  journal_.emplace(out_ / kJournalFile, fresh);
  stream_.emplace(out_ / "results.jsonl");
}

void RunFolder::compile_done(const CompileRecord& record, const std::string& compile_json) {
  journal_->compile(record);
  // The whole compile report (negative set, diagnostics, PTX of each disagreement) beside run.json.
  write_file_atomically(out_ / "compile.json", compile_json);
}

}  // namespace mmasp::run
