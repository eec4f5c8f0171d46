// Issue #29: inputs and run folders that cannot be trusted. Each defect found by trying mmasp as a user and an attacker
// would is reproduced here against the real binary and must give exit 2 with a message naming the file and the field
// (or the flag, or the holder of --out), or the documented behaviour — never a crash, a masked failure or a write
// outside --out. The inputs are made here from the committed ones, so each test says exactly what it changed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "harness/module_store.h"
#include "harness/ptxas.h"

namespace mmasp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSource = MMASP_SOURCE_DIR;
const std::string kBaseline = (kSource / "evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json").string();

std::string binary() { return std::getenv("MMASP_BINARY") ? std::getenv("MMASP_BINARY") : MMASP_BINARY; }

CommandResult mmasp(std::vector<std::string> args) {
  args.insert(args.begin(), binary());
  return run_command(args);
}

// Whether this machine allows a mount namespace of the test's own (unshare --user --mount), for a full disk.
bool private_mount_namespace() {
  return run_command({"unshare", "--user", "--map-root-user", "--mount", "true"}).exit_code == 0;
}

// `script` run by sh with $0 the mmasp binary and $1 `folder`, a tmpfs of 8 KiB mounted there in that namespace: a
// full disk for whatever mmasp writes into the folder.
CommandResult on_a_full_disk(const fs::path& folder, const std::string& script) {
  fs::create_directories(folder);
  return run_command({"unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                      "mount -t tmpfs -o size=8k tmpfs \"$1\" && " + script, binary(), folder.string()});
}

// A folder of its own per test, removed afterwards.
class Untrusted : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "-" + info->name();
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
    dir_ = fs::temp_directory_path() / ("mmasp-untrusted-" + std::to_string(getpid())) / name;
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_.parent_path()); }
  fs::path file(const std::string& name, const std::string& text) const {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  static std::string text_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static json json_of(const fs::path& path) { return json::parse(text_of(path)); }
  // A small emulated run (8 pairs of f16 m16n8k16): its folder, finished.
  static std::vector<std::string> small_run(const fs::path& out, const std::string& seed = "1") {
    return {"run", "--emulator", "--no-compile", "--filter", "*m16n8k16.row.col.f16*", "--cases", "16",
            "--special-generated", "2", "--threads", "2", "--seed", seed, "--out", out.string()};
  }
  fs::path dir_;
};

// The command exits `status` and says `needle` (plain text, not a pattern).
void expect_refusal(const CommandResult& run, int status, const std::string& needle) {
  EXPECT_EQ(run.exit_code, status) << run.output;
  EXPECT_NE(run.output.find(needle), std::string::npos) << "expected to see: " << needle << "\n" << run.output;
}

std::string nested(int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); }

// --- 1. Memory safety ------------------------------------------------------------------------------------------------

// Scale ids outside their range used to be packed into lanes past the warp (an out-of-bounds write in to_registers).
// They are undefined behaviour: `eval` labels them, `repro` refuses them, and `repro --ub` runs them in a process of
// its own.
TEST_F(Untrusted, ScaleIdsOutOfRangeAreUndefinedAndRunOnlyInIsolation) {
  json base = json_of(kSource / "suites/cases/mxf8f6f4-scale-extremes.json");
  const std::vector<std::array<int, 4>> ids = {{0, 4, 0, 10000}, {0, -1, 0, -1}, {INT_MIN, INT_MAX, INT_MAX, INT_MIN}, {7, 0, 0, 3}};
  for (const auto& [byte_a, thread_a, byte_b, thread_b] : ids) {
    json test = base;
    test["scale_ids"] = {{"byte_a", byte_a}, {"thread_a", thread_a}, {"byte_b", byte_b}, {"thread_b", thread_b}};
    const fs::path path = file("ids.json", test.dump());
    SCOPED_TRACE(test["scale_ids"].dump());
    const CommandResult eval = mmasp({"eval", path.string()});
    EXPECT_EQ(eval.exit_code, 0) << eval.output;
    EXPECT_NE(eval.output.find("UB: not judged"), std::string::npos) << eval.output;
    expect_refusal(mmasp({"repro", "--emulator", path.string()}), 2, path.string() + ": the behaviour of this case is undefined");
    const CommandResult isolated = mmasp({"repro", "--emulator", "--ub", path.string()});
    EXPECT_EQ(isolated.exit_code, 0) << isolated.output;
    EXPECT_NE(isolated.output.find("running it in a process of its own"), std::string::npos) << isolated.output;
    EXPECT_NE(isolated.output.find("classification: UB-not-judged"), std::string::npos) << isolated.output;
  }
}

// A value nested 100,000 deep in a small file used to overflow the stack through a recursive copy (exit 139).
TEST_F(Untrusted, DeepNestingIsRefusedWithTheFileAndThePointer) {
  const std::string deep = nested(100000);
  std::string case_text = text_of(kSource / "suites/cases/int8-wrap.json");
  case_text = case_text.substr(0, case_text.rfind('}')) + ", \"provenance\": {\"origin\": \"x\", \"deep\": " + deep + "}}";
  const fs::path case_file = file("deep-case.json", case_text);
  expect_refusal(mmasp({"eval", case_file.string()}), 2, case_file.string() + ": /provenance/deep/0/0/0");
  expect_refusal(mmasp({"eval", case_file.string()}), 2, "nested deeper than 64 levels");

  const fs::path waivers = file("deep-waivers.json", "{\"schema\": \"mmasp-waivers/1\", \"waivers\": " + deep + "}");
  expect_refusal(mmasp({"diff", kBaseline, kBaseline, "--waivers", waivers.string()}), 2, waivers.string() + ": /waivers/0/0");

  const fs::path run_json = file("deep-run.json", "{\"schema\": \"mmasp-run/1\", \"run\": " + deep + "}");
  expect_refusal(mmasp({"diff", run_json.string(), kBaseline}), 2, run_json.string() + ": /run/0/0");

  // A journal whose header's identity nests deep: `run --resume` reads it first.
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  file("out/journal.jsonl", "{\"journal\": \"mmasp-journal/2\", \"run\": \"1\", \"identity\": {\"x\": " + deep + "}}\n");
  std::vector<std::string> resume = small_run(out);
  resume.push_back("--resume");
  expect_refusal(mmasp(resume), 2, (out / "journal.jsonl").string() + ":1: /identity/x/0/0");
}

// --- 2. A failure cannot pass the gate --------------------------------------------------------------------------------

// Read last-wins, a repeated key let the second value decide unseen.
TEST_F(Untrusted, RepeatedKeysAreRefusedWhereverTheyAre) {
  const fs::path waiver = file("waiver.json",
                               R"({"schema": "mmasp-waivers/1", "waivers": [{"form": "nomatch", "reason": "r", "form": "*"}]})");
  expect_refusal(mmasp({"diff", kBaseline, kBaseline, "--waivers", waiver.string()}), 2,
                 waiver.string() + ": /waivers/0/form: the key \"form\" is given twice");

  std::string run = text_of(kBaseline);
  const size_t status = run.find("\"status\": \"Pass\"");
  ASSERT_NE(status, std::string::npos);
  run.replace(status, 16, "\"status\": \"Fail\", \"status\": \"Pass\"");
  const fs::path run_json = file("run.json", run);
  expect_refusal(mmasp({"diff", kBaseline, run_json.string()}), 2, run_json.string() + ": /results/");
  expect_refusal(mmasp({"report", run_json.string(), "--out", (dir_ / "r").string()}), 2, "the key \"status\" is given twice");

  std::string case_text = text_of(kSource / "suites/cases/f16-k16-f32-wrong-result.json");
  const size_t observed = case_text.find("\"observed_d\"");
  ASSERT_NE(observed, std::string::npos);
  case_text.insert(observed, "\"observed_d\": {\"fill\": 0}, ");
  const fs::path case_file = file("case.json", case_text);
  expect_refusal(mmasp({"eval", case_file.string()}), 2, case_file.string() + ": /observed_d: the key \"observed_d\" is given twice");
}

// A Fail then a Pass under one result id: `report` said FAIL while `diff` saw "no changes".
TEST_F(Untrusted, ARepeatedResultIdIsRefused) {
  json run = json_of(kBaseline);
  json failing = run["results"][0];
  failing["status"] = "Fail";
  run["results"].insert(run["results"].begin(), failing);
  const fs::path path = file("run.json", run.dump());
  const std::string id = failing["id"].get<std::string>();
  expect_refusal(mmasp({"diff", kBaseline, path.string()}), 2, path.string() + ": /results/1/id: the result id '" + id + "' is given twice");
  expect_refusal(mmasp({"report", path.string(), "--out", (dir_ / "r").string()}), 2, "is given twice");
}

// One shard of two merged exited 0, and a diff of it against the whole run counted no regression.
TEST_F(Untrusted, AnIncompleteMergeFailsUnlessPartialAndItsDiffCountsWhatIsMissing) {
  std::vector<std::string> whole = small_run(dir_ / "whole"), shard = small_run(dir_ / "shard1");
  shard.insert(shard.end(), {"--shard", "1/2"});
  ASSERT_EQ(mmasp(whole).exit_code, 0);
  ASSERT_EQ(mmasp(shard).exit_code, 0);
  const std::string part = (dir_ / "shard1/run.json").string();
  expect_refusal(mmasp({"merge", part, "--out", (dir_ / "merged").string()}), 1, "INCOMPLETE: shard 2 of 2 missing");
  const CommandResult partial = mmasp({"merge", part, "--partial", "--out", (dir_ / "partial").string()});
  EXPECT_EQ(partial.exit_code, 0) << partial.output;
  const CommandResult diff = mmasp({"diff", (dir_ / "whole/run.json").string(), (dir_ / "partial/run.json").string()});
  EXPECT_EQ(diff.exit_code, 1) << diff.output;
  EXPECT_NE(diff.output.find("REGRESSION missing: "), std::string::npos) << diff.output;
  // The shard itself against the whole run: what the other shard holds is explained by the split.
  const CommandResult own = mmasp({"diff", (dir_ / "whole/run.json").string(), part});
  EXPECT_EQ(own.exit_code, 0) << own.output;
  EXPECT_NE(own.output.find("in another shard than this run's 1/2"), std::string::npos) << own.output;
}

// --- 3. --resume trusts nothing it finds -----------------------------------------------------------------------------

class Resume : public Untrusted {
 protected:
  // Run A (seed 1) and run B (seed 2), finished; the journal lines of each.
  void SetUp() override {
    Untrusted::SetUp();
    ASSERT_EQ(mmasp(small_run(dir_ / "a", "1")).exit_code, 0);
    ASSERT_EQ(mmasp(small_run(dir_ / "b", "2")).exit_code, 0);
    a_ = lines(dir_ / "a/journal.jsonl");
    b_ = lines(dir_ / "b/journal.jsonl");
    ASSERT_GE(a_.size(), 4u);
  }
  static std::vector<std::string> lines(const fs::path& path) {
    std::vector<std::string> out;
    std::istringstream in(text_of(path));
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
  // Run A's options resumed into a folder holding `journal` (an unfinished run: no run.json).
  CommandResult resume_with(const std::vector<std::string>& journal) {
    const fs::path out = dir_ / "c";
    fs::remove_all(out);
    fs::create_directories(out);
    std::string text;
    for (const auto& line : journal) text += line + "\n";
    std::ofstream(out / "journal.jsonl") << text;
    std::vector<std::string> args = small_run(out, "1");
    args.push_back("--resume");
    return mmasp(args);
  }
  std::vector<std::string> a_, b_;
};

TEST_F(Resume, AnUnchangedJournalResumes) {
  const CommandResult run = resume_with({a_[0], a_[1], a_[2]});
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

// Seed-2 results under a seed-1 header used to become the seed-1 run's results.
TEST_F(Resume, LinesOfAnotherRunAreRefused) {
  expect_refusal(resume_with({a_[0], b_[1], b_[2]}), 2, "journal.jsonl:2: /run: a line of another run");
}

TEST_F(Resume, APairMustHoldExactlyItsOwnResults) {
  json empty = json::parse(a_[1]);
  empty["pair"]["results"] = json::array();
  expect_refusal(resume_with({a_[0], empty.dump()}), 2, "journal.jsonl:2: /pair/results: the pair's special result is missing");

  json borrowed = json::parse(a_[1]);
  borrowed["pair"]["results"] = json::parse(a_[2])["pair"]["results"];
  expect_refusal(resume_with({a_[0], borrowed.dump()}), 2, "journal.jsonl:2: /pair/results/0: a result of");

  json doubled = json::parse(a_[1]);
  doubled["pair"]["results"].push_back(doubled["pair"]["results"][0]);
  expect_refusal(resume_with({a_[0], doubled.dump()}), 2, "a second special result for this pair");

  expect_refusal(resume_with({a_[0], a_[1], a_[1]}), 2, "journal.jsonl:3: /pair: ");
}

// The journal's pairs out of this run's order: the refusal names both pairs with their selectors.
TEST_F(Resume, AMismatchNamesBothPairsWithTheirSelectors) {
  const CommandResult run = resume_with({a_[0], a_[2], a_[1]});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const std::string first = json::parse(a_[1])["pair"]["form"].get<std::string>();
  EXPECT_NE(run.output.find("this run's is " + first + " sel=0"), std::string::npos) << run.output;
}

// --- 4. --out is one run's, and a planted link is never followed -----------------------------------------------------

TEST_F(Untrusted, ASecondRunIntoABusyOutRefusesAndNamesTheHolder) {
  const fs::path out = dir_ / "out";
  for (const std::string isolation : {"none", "process"}) {
    SCOPED_TRACE("first run with --isolation " + isolation);
    fs::remove_all(out);
    std::vector<std::string> first = {"run", "--emulator", "--no-compile", "--filter", "*m16n8k16*bf16*", "--budget", "8",
                                      "--threads", "2", "--isolation", isolation, "--out", out.string()};
    auto running = std::async(std::launch::async, [first] { return mmasp(first); });
    for (int i = 0; i < 400 && !fs::exists(out / "journal.jsonl"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    ASSERT_TRUE(fs::exists(out / "journal.jsonl"));
    const CommandResult second = mmasp(small_run(out, "1"));
    expect_refusal(second, 2, "--out " + out.string() + " is in use by another mmasp run (pid ");
    const CommandResult resumed = mmasp({"run", "--emulator", "--no-compile", "--filter", "*m16n8k16*bf16*", "--budget", "8",
                                         "--threads", "2", "--out", out.string(), "--resume"});
    expect_refusal(resumed, 2, "is in use by another mmasp run");
    const CommandResult done = running.get();
    EXPECT_EQ(done.exit_code, 0) << done.output;
    // Every line the first run streamed is whole.
    std::istringstream lines(text_of(out / "results.jsonl"));
    size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) EXPECT_NO_THROW((void)json::parse(line)) << line;
    EXPECT_EQ(count, json_of(out / "run.json")["results"].size());
  }
}

TEST_F(Untrusted, APlantedLinkInOutIsNeverFollowed) {
  const fs::path out = dir_ / "out";
  ASSERT_EQ(mmasp(small_run(out)).exit_code, 0);
  const fs::path precious = file("precious.txt", "precious\n");
  for (const std::string name : {"results.jsonl", "journal.jsonl", "run.json", "failures", "journal.jsonl.rewrite"}) {
    SCOPED_TRACE(name);
    fs::remove_all(out / name);
    fs::create_symlink(precious, out / name);
    std::vector<std::string> resume = small_run(out);
    resume.push_back("--resume");
    expect_refusal(mmasp(resume), 2, "--out " + out.string() + ": " + name + " is a symbolic link");
    expect_refusal(mmasp(small_run(out)), 2, name + " is a symbolic link");
    EXPECT_EQ(text_of(precious), "precious\n");
    // --force replaces the link itself, never what it points to.
    std::vector<std::string> forced = small_run(out);
    forced.push_back("--force");
    const CommandResult run = mmasp(forced);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(text_of(precious), "precious\n");
    if (name != "journal.jsonl.rewrite") EXPECT_FALSE(fs::is_symlink(out / name));   // not mmasp's: --force writes beside it
  }
}

// --- 5. Stores check what they hold ----------------------------------------------------------------------------------

// A full disk made `prepare` say "prepared 152 modules" and exit 0 over empty cubins. The store here is a tmpfs of 8 KiB
// mounted in a mount namespace of the test's own (unshare); ptxas's own files stay in /tmp, as they did.
TEST_F(Untrusted, PrepareOnAFullDiskFails) {
  if (!private_mount_namespace())
    GTEST_SKIP() << "no full disk to try: this machine does not allow a private mount namespace (unshare --user --mount)";
  const fs::path store = dir_ / "store";
  const CommandResult run = on_a_full_disk(store, "exec \"$0\" prepare --no-resident --target sm_90a --filter '*m16n8k16*' --out \"$1\"");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("cannot write " + store.string()), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("No space left on device"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("FAILED (the store is incomplete)"), std::string::npos) << run.output;
}

// `compile --json` on a full disk: exit 2 naming the file, and no truncated compile.json left where the earlier one was.
TEST_F(Untrusted, CompileJsonOnAFullDiskLeavesNoTruncatedFile) {
  if (!private_mount_namespace())
    GTEST_SKIP() << "no full disk to try: this machine does not allow a private mount namespace (unshare --user --mount)";
  const fs::path folder = dir_ / "full";
  // An earlier, whole compile.json of a few bytes fits; the new one (tens of KB) does not.
  const CommandResult run = on_a_full_disk(
      folder, "printf '{\"earlier\": true}\\n' > \"$1/compile.json\" && \"$0\" compile --targets sm_90a,sm_80 "
              "--filter '*m16n8k16*' --json \"$1/compile.json\"; status=$?; cat \"$1/compile.json\"; exit $status");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find(folder.string() + "/compile.json"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("{\"earlier\": true}"), std::string::npos) << "the earlier compile.json was replaced: " << run.output;
}

TEST_F(Untrusted, ADamagedStoreEntryIsMadeAgainAndANonFileIsSaid) {
  const fs::path store = dir_ / "store";
  const std::vector<std::string> prepare = {"prepare", "--no-resident", "--target", "sm_90a", "--filter", "*m16n8k16.row.col.f32.bf16*",
                                            "--out", store.string()};
  ASSERT_EQ(mmasp(prepare).exit_code, 0);
  std::vector<fs::path> cubins;
  for (const auto& entry : fs::directory_iterator(store))
    if (entry.path().extension() == ".cubin") cubins.push_back(entry.path());
  ASSERT_GE(cubins.size(), 3u);
  const uintmax_t size = fs::file_size(cubins[0]);
  std::ofstream(cubins[0], std::ios::trunc);                              // empty (a full disk)
  fs::resize_file(cubins[1], fs::file_size(cubins[1]) / 2);               // cut short
  std::ofstream(cubins[2], std::ios::trunc) << "not a cubin at all";      // garbage
  const CommandResult again = mmasp(prepare);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(fs::file_size(cubins[0]), size);
  EXPECT_EQ(text_of(cubins[2]).substr(0, 4), "\x7f" "ELF");
  // A directory where an entry belongs: said with its path, and the store is incomplete.
  fs::remove(cubins[0]);
  fs::create_directory(cubins[0]);
  expect_refusal(mmasp(prepare), 1, cubins[0].string() + " is not a regular file");
}

class PtxasCache : public Untrusted {
 protected:
  std::vector<std::string> compile(const fs::path& cache) const {
    return {"compile", "--targets", "sm_90a", "--filter", "*m16n8k16.row.col.f32.bf16*", "--no-negative", "--cache", cache.string()};
  }
  std::vector<fs::path> entries(const fs::path& cache) const {
    std::vector<fs::path> out;
    for (const auto& entry : fs::recursive_directory_iterator(cache))
      if (entry.path().extension() == ".json") out.push_back(entry.path());
    return out;
  }
};

TEST_F(PtxasCache, WhatIsNotAFileIsSaidAndNeverWaitedOn) {
  const fs::path cache = dir_ / "cache";
  const CommandResult first = mmasp(compile(cache));
  ASSERT_EQ(first.exit_code, 0) << first.output;
  std::vector<fs::path> found = entries(cache);
  ASSERT_GE(found.size(), 2u);
  fs::remove(found[0]);
  fs::create_directory(found[0]);
  fs::remove(found[1]);
  ASSERT_EQ(mkfifo(found[1].c_str(), 0644), 0);
  const auto start = std::chrono::steady_clock::now();
  const CommandResult again = mmasp(compile(cache));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("is not a regular file; left alone"), std::string::npos) << again.output;
}

TEST_F(PtxasCache, AForgedOrDamagedEntryIsAssembledAgain) {
  const fs::path cache = dir_ / "cache";
  ASSERT_EQ(mmasp(compile(cache)).exit_code, 0);
  for (const fs::path& entry : entries(cache)) std::ofstream(entry, std::ios::trunc) << R"({"exit_code": 1, "diagnostics": "", "sha256": "0"})";
  const CommandResult again = mmasp(compile(cache));
  EXPECT_EQ(again.exit_code, 0) << again.output;   // a forged "rejected" verdict would be a new disagreement
}

// A cache folder that cannot be written used to abort compile conformance.
TEST_F(PtxasCache, AReadOnlyCacheRunsUncachedWithAWarning) {
  fs::path read_only = dir_ / "read-only";
  fs::create_directories(read_only);
  fs::permissions(read_only, fs::perms::owner_read | fs::perms::owner_exec);
  if (geteuid() == 0) read_only = "/sys";   // root writes anywhere it may; /sys refuses even root
  const CommandResult run = mmasp(compile(read_only));
  fs::permissions(dir_ / "read-only", fs::perms::owner_all);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("warning: ptxas cache"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("uncached"), std::string::npos) << run.output;
}

// --- 6. Silent changes and unnamed errors ----------------------------------------------------------------------------

TEST_F(Untrusted, NumbersADoubleCannotHoldAreNamedInRunJson) {
  json run = json_of(kBaseline);
  for (const std::string number : {"1e-400", "1e400"}) {
    std::string text = run.dump();
    const std::string seconds = "\"seconds\":";
    const size_t at = text.find(seconds, text.find("\"results\""));
    ASSERT_NE(at, std::string::npos);
    const size_t end = text.find_first_of(",}", at);
    text.replace(at + seconds.size(), end - at - seconds.size(), number);
    const fs::path path = file("run.json", text);
    expect_refusal(mmasp({"diff", path.string(), kBaseline}), 2,
                   path.string() + ": /results/0/seconds: the number " + number + " is outside what a double holds");
  }
}

TEST_F(Untrusted, AProvenanceOriginOfTheWrongTypeIsNamed) {
  json test = json_of(kSource / "suites/cases/int8-wrap.json");
  test["provenance"] = {{"origin", 5}};
  const fs::path path = file("case.json", test.dump());
  expect_refusal(mmasp({"eval", path.string()}), 2, path.string() + ": /provenance/origin: a string is expected, not number");
}

TEST_F(Untrusted, RunStringsAreEscapedInSummaryMarkdown) {
  json run = json_of(kBaseline);
  run["run"]["notes"] = {"# heading\n<script>alert(1)</script> [link](http://example.com) ![x](y) | cell | *bold*"};
  run["environment"]["device"]["name"] = "GPU | <img src=x onerror=alert(1)>";
  run["results"][0]["status"] = "Fail";
  run["results"][0]["note"] = "`code` <b>bold</b>\n## not a heading";
  const fs::path path = file("run.json", run.dump());
  const CommandResult report = mmasp({"report", path.string(), "--out", (dir_ / "r").string()});
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string summary = text_of(dir_ / "r/summary.md");
  for (const std::string raw : {"<script>", "<img", "<b>", "[link](", "![x]", "\n# heading", "\n## not a heading", "| cell |"})
    EXPECT_EQ(summary.find(raw), std::string::npos) << "summary.md holds " << raw;
  EXPECT_NE(summary.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(summary.find("\\[link\\]"), std::string::npos);
}

TEST_F(Untrusted, EvalShowsCommentsWithoutControlCharacters) {
  json test = json_of(kSource / "suites/cases/int8-wrap.json");
  test["comment"] = {"\x1b]0;owned\x07\x1b[2J\rred"};
  const fs::path path = file("case.json", test.dump());
  const CommandResult eval = mmasp({"eval", path.string()});
  EXPECT_EQ(eval.exit_code, 0) << eval.output;
  EXPECT_EQ(eval.output.find('\x1b'), std::string::npos);
  EXPECT_EQ(eval.output.find('\x07'), std::string::npos);
  EXPECT_NE(eval.output.find("\\x1b]0;owned\\x07"), std::string::npos) << eval.output;
}

TEST_F(Untrusted, GlobsAndReasonsAreChecked) {
  const auto waivers = [&](const std::string& entry) {
    return file("waivers.json", "{\"schema\": \"mmasp-waivers/1\", \"waivers\": [" + entry + "]}").string();
  };
  expect_refusal(mmasp({"diff", kBaseline, kBaseline, "--waivers", waivers(R"({"form": "[[:bogus:]]", "reason": "r"})")}), 2,
                 "/waivers/0/form: the glob '[[:bogus:]]' names the character class '[:bogus:]', which does not exist");
  expect_refusal(mmasp({"diff", kBaseline, kBaseline, "--waivers", waivers(R"({"form": "*tf32*", "reason": " "})")}), 2,
                 "/waivers/0/reason: every waiver needs a reason with visible text (it has none)");
  expect_refusal(mmasp({"diff", kBaseline, kBaseline, "--waivers", waivers(R"({"reason": "flaky"})")}), 2,
                 "/waivers/0/form: missing");
  json findings = json_of(kSource / "findings/findings.json");
  findings["findings"][0]["cases"][0] = "accept/[[:nope:]]*";
  const fs::path path = file("findings.json", findings.dump());
  expect_refusal(mmasp({"compile", "--targets", "sm_90a", "--filter", "*tf32*", "--findings", path.string()}), 2,
                 path.string() + ": /findings/0/cases/0: the glob");
  // A NUL would end the glob where fnmatch reads it, and hide every compile disagreement behind it.
  json nul = json_of(kSource / "findings/findings.json");
  nul["findings"][0]["cases"][0] = std::string("*\0 only m16n8k32", 16);
  const fs::path nul_path = file("findings-nul.json", nul.dump());
  expect_refusal(mmasp({"compile", "--targets", "sm_90a", "--filter", "*tf32*", "--findings", nul_path.string()}), 2,
                 nul_path.string() + ": /findings/0/cases/0: the glob '*\\x00 only m16n8k32' holds the control character");
  json twice = json_of(kSource / "findings/findings.json");
  twice["findings"].push_back(twice["findings"][0]);
  const fs::path twice_path = file("findings-twice.json", twice.dump());
  expect_refusal(mmasp({"compile", "--targets", "sm_90a", "--filter", "*tf32*", "--findings", twice_path.string()}), 2,
                 "/findings/" + std::to_string(twice["findings"].size() - 1) + "/id: the id");
}

// --- Issue #72: no file, folder, script or toolchain opens the gate ---------------------------------------------------

CommandResult mmasp_with(const std::vector<std::string>& environment, std::vector<std::string> args) {
  std::vector<std::string> command = {"env"};
  command.insert(command.end(), environment.begin(), environment.end());
  command.push_back(binary());
  command.insert(command.end(), args.begin(), args.end());
  return run_command(command);
}

const std::string kOneForm = "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";

// A ptxas the user names is the one tested: one that cannot run is exit 2, never the build's ptxas instead.
TEST_F(Untrusted, ANamedPtxasThatCannotRunIsRefused) {
  const std::string missing = (dir_ / "no-such-ptxas").string();
  expect_refusal(mmasp({"compile", "--ptxas", missing, "--targets", "sm_90a", "--filter", kOneForm}), 2,
                 "--ptxas names " + missing);
  expect_refusal(mmasp_with({"MMASP_PTXAS=" + missing}, {"compile", "--targets", "sm_90a", "--filter", kOneForm}), 2,
                 "MMASP_PTXAS names " + missing);
  const fs::path out = dir_ / "out";
  expect_refusal(mmasp({"run", "--emulator", "--ptxas", missing, "--filter", kOneForm, "--cases", "8", "--out", out.string()}),
                 2, "--ptxas names " + missing);
  EXPECT_FALSE(fs::exists(out)) << "a refused run left --out behind";
}

// A ptxas that never returns: each call is killed at MMASP_TOOL_TIMEOUT, its case is not run and said so, and no child
// outlives mmasp; a SIGTERM stops the batch at once.
TEST_F(Untrusted, APtxasThatHangsIsKilledAndItsCasesAreNotRun) {
  const fs::path fake = file("hanging-ptxas", "#!/bin/sh\n"
                                              "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n"
                                              "exec sleep 1000\n");
  fs::permissions(fake, fs::perms::owner_all);
  const auto start = std::chrono::steady_clock::now();
  const CommandResult timed = mmasp_with({"MMASP_TOOL_TIMEOUT=1"}, {"compile", "--ptxas", fake.string(), "--no-cache",
                                                                    "--targets", "sm_90a", "--filter", kOneForm, "-j", "8"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 30) << timed.output;
  EXPECT_NE(timed.output.find("not run"), std::string::npos) << timed.output;
  EXPECT_EQ(run_command({"pgrep", "-f", "sleep 1000"}).exit_code, 1) << "a ptxas child outlived mmasp";
  // SIGTERM a second into a batch whose ptxas would take 1000 s each.
  const auto term_start = std::chrono::steady_clock::now();
  const CommandResult stopped = run_command(
      {"sh", "-c", "\"$0\" compile --ptxas \"$1\" --no-cache --targets sm_90a --filter \"$2\" & pid=$!; sleep 1; "
                   "kill -TERM $pid; wait $pid; echo \"exit=$?\"",
       binary(), fake.string(), kOneForm});
  const double term_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - term_start).count();
  EXPECT_LT(term_seconds, 15) << stopped.output;
  EXPECT_NE(stopped.output.find("exit=143"), std::string::npos) << stopped.output;
  EXPECT_EQ(run_command({"pgrep", "-f", "sleep 1000"}).exit_code, 1) << "a ptxas child outlived a stopped mmasp";
}

// Every command reads --filter the same way: an exact opcode selects that form's compile cases too.
TEST_F(Untrusted, CompileReadsAnExactOpcodeAsRunDoes) {
  const CommandResult run = mmasp({"compile", "--targets", "sm_90a", "--filter", kOneForm, "--no-negative"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("matches no compile case"), std::string::npos) << run.output;
}

// Text options that are not UTF-8 are refused naming the option, before --out exists.
TEST_F(Untrusted, NonUtf8OptionsAreRefusedNamingTheOption) {
  const fs::path out = dir_ / "out";
  for (const std::string option : {"--filter", "--exclude", "--model-record"}) {
    std::vector<std::string> args = {"run", "--emulator", "--cases", "8", "--out", out.string(), option, "a\xff\xfe"};
    expect_refusal(mmasp(args), 2, option + ": the byte 0xff at 1 is not UTF-8");
    EXPECT_FALSE(fs::exists(out)) << option;
  }
  expect_refusal(mmasp({"run", "--emulator", "--cases", "8", "--filter", kOneForm, "--out", (dir_ / "o\xff").string()}), 2,
                 "--out: the byte 0xff");
  EXPECT_FALSE(fs::exists(dir_ / "o\xff"));
  expect_refusal(mmasp({"compile", "--targets", "sm_90a", "--filter", "\xc3("}), 2, "--filter: the byte 0xc3 at 0 is not UTF-8");
}

// Seconds are written as the whole-number options are: digits and a point, nothing else.
TEST_F(Untrusted, SecondsOptionsAreReadStrictly) {
  for (const std::string value : {"0x10", "+5", "  5", "5 ", "1e1", "-1", "inf", "nan", ".", "0"}) {
    expect_refusal(mmasp({"run", "--emulator", "--budget", value, "--out", (dir_ / "b").string()}), 2,
                   "a number of seconds greater than 0");
    expect_refusal(mmasp({"run", "--emulator", "--watchdog", value, "--out", (dir_ / "w").string()}), 2,
                   "a number of seconds greater than 0");
  }
  EXPECT_FALSE(fs::exists(dir_ / "b"));
}

// --devices '' names no device: refused, not a plain run.
TEST_F(Untrusted, AnEmptyDeviceListIsRefused) {
  const fs::path out = dir_ / "out";
  expect_refusal(mmasp({"run", "--emulator", "--devices", "", "--out", out.string()}), 2, "--devices names no device");
  EXPECT_FALSE(fs::exists(out / "run.json"));
}

// A device's folder or console log planted as a link in --out is refused; nothing is written through it.
TEST_F(Untrusted, DevicesOpenNothingThroughALink) {
  const fs::path out = dir_ / "out", elsewhere = dir_ / "elsewhere";
  fs::create_directories(out);
  fs::create_directories(elsewhere);
  for (const std::string planted : {"emulator0", "emulator1.log"}) {
    SCOPED_TRACE(planted);
    fs::remove_all(out);
    fs::create_directories(out);
    if (planted.ends_with(".log")) fs::create_symlink(elsewhere / "victim.log", out / planted);
    else fs::create_directory_symlink(elsewhere, out / planted);
    std::vector<std::string> args = small_run(out);
    args.insert(args.end(), {"--devices", "emulator:2"});
    expect_refusal(mmasp(args), 2, planted + " is a symbolic link");
    EXPECT_TRUE(fs::is_empty(elsewhere)) << "a device wrote through the link";
  }
}

// A TMPDIR that does not exist is named, not a raw filesystem error.
TEST_F(Untrusted, AMissingTmpdirIsNamed) {
  expect_refusal(mmasp_with({"TMPDIR=" + (dir_ / "gone").string()},
                            {"compile", "--no-cache", "--targets", "sm_90a", "--filter", kOneForm}),
                 2, "TMPDIR=" + (dir_ / "gone").string());
}

// A journal's times are checked: a negative elapsed time would hand a resumed --budget run time it never had.
TEST_F(Untrusted, AJournalWithANegativeTimeIsRefused) {
  const fs::path out = dir_ / "out";
  std::vector<std::string> args = {"run", "--emulator", "--no-compile", "--filter", "*m16n8k16.row.col.f16*", "--budget",
                                   "4", "--threads", "2", "--out", out.string()};
  ASSERT_EQ(mmasp(args).exit_code, 0);
  std::string journal = text_of(out / "journal.jsonl");
  const size_t at = journal.find("\"elapsed_seconds\":");
  ASSERT_NE(at, std::string::npos);
  const size_t end = journal.find_first_of(",}", at);
  journal.replace(at, end - at, "\"elapsed_seconds\":-1e9");
  file("out/journal.jsonl", journal);
  fs::remove(out / "run.json");
  args.push_back("--resume");
  expect_refusal(mmasp(args), 2, "/pair/elapsed_seconds: a number of seconds from 0 to");
}

// `report --out` never writes another run's reports into a run folder (the next plain run would take an unfinished
// run for a finished one); rendering the folder's own run.json again is fine.
TEST_F(Untrusted, ReportNeverOverwritesARunFolder) {
  const fs::path out = dir_ / "out";
  ASSERT_EQ(mmasp(small_run(out)).exit_code, 0);
  expect_refusal(mmasp({"report", kBaseline, "--out", out.string()}), 2, "holds a run (its journal.jsonl)");
  const CommandResult again = mmasp({"report", (out / "run.json").string(), "--out", out.string()});
  EXPECT_EQ(again.exit_code, 0) << again.output;
}

// The module store keeps a digest per entry: a flipped bit, a zeroed body or another module's cubin is made again.
TEST_F(Untrusted, TheModuleStoreKnowsEachEntryByItsDigest) {
  const fs::path store = dir_ / "modules";
  const std::vector<std::string> prepare = {"prepare", "--no-resident", "--target", "sm_90a", "--out", store.string(), "--filter", kOneForm};
  ASSERT_EQ(mmasp(prepare).exit_code, 0);
  std::vector<fs::path> cubins;
  for (const auto& entry : fs::directory_iterator(store))
    if (entry.path().extension() == ".cubin") cubins.push_back(entry.path());
  ASSERT_GE(cubins.size(), 2u);
  std::sort(cubins.begin(), cubins.end());
  const std::string original = text_of(cubins[0]);
  const auto damage = [&](const std::string& how, const std::string& bytes) {
    SCOPED_TRACE(how);
    fs::remove(cubins[0]);
    file("modules/" + cubins[0].filename().string(), bytes);
    const CommandResult again = mmasp(prepare);
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(text_of(cubins[0]), original) << "the damaged entry was kept";
  };
  std::string flipped = original;
  flipped[flipped.size() - 100] = char(flipped[flipped.size() - 100] ^ 0x10);
  damage("one bit flipped in the code", flipped);
  std::string zeroed = original;
  std::fill(zeroed.begin() + 64, zeroed.end(), '\0');
  damage("the body zeroed", zeroed);
  damage("another module's cubin", text_of(cubins[1]));
}

// The driver's JIT of a resident PTX image is kept by the PTX and the GPU (architecture and driver): found again for
// the same, not for another driver or other PTX; a damaged entry is not used and says so; a non-cubin is not kept,
// nor anything over a directory at the entry's name.
TEST_F(Untrusted, TheModuleStoreKeepsAJitByItsPtxArchitectureAndDriver) {
  const fs::path toolkit = dir_ / "toolkit";
  ASSERT_EQ(mmasp({"prepare", "--no-resident", "--target", "sm_90a", "--out", toolkit.string(), "--filter", kOneForm}).exit_code, 0);
  std::string cubin;
  for (const auto& entry : fs::directory_iterator(toolkit))
    if (entry.path().extension() == ".cubin") cubin = text_of(entry.path());
  ASSERT_FALSE(cubin.empty());
  const fs::path dir = dir_ / "modules";
  const ModuleStore store(dir, nullptr);
  const std::string ptx = ".version 8.0\n.target sm_80\n", gpu = "sm_89 driver 580.159.04 CUDA 13000";
  std::string problem, why;
  EXPECT_FALSE(store.jitted(ptx, gpu, &problem));
  EXPECT_EQ(problem, "");
  ASSERT_TRUE(store.keep_jitted(ptx, gpu, cubin, &why)) << why;
  const auto kept = store.jitted(ptx, gpu, &problem);
  ASSERT_TRUE(kept) << problem;
  EXPECT_EQ(*kept, cubin);
  EXPECT_FALSE(store.jitted(ptx, "sm_89 driver 590.1 CUDA 13010", &problem)) << "another driver's JIT";
  EXPECT_FALSE(store.jitted(ptx, "sm_86 driver 580.159.04 CUDA 13000", &problem)) << "another architecture's";
  EXPECT_FALSE(store.jitted(ptx + "// other\n", gpu, &problem)) << "other PTX";
  EXPECT_EQ(problem, "");
  EXPECT_FALSE(store.keep_jitted(ptx, gpu, "not a cubin", &why));
  EXPECT_NE(why.find("no whole cubin"), std::string::npos) << why;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".cubin") entries.push_back(entry.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].filename().string().substr(0, 4), "jit-");
  std::string flipped = cubin;
  flipped[flipped.size() - 100] = char(flipped[flipped.size() - 100] ^ 0x10);
  std::ofstream(entries[0], std::ios::binary | std::ios::trunc) << flipped;
  EXPECT_FALSE(store.jitted(ptx, gpu, &problem));
  EXPECT_NE(problem.find("damaged"), std::string::npos) << problem;
  ASSERT_TRUE(store.keep_jitted(ptx, gpu, cubin, &why)) << why;   // made again over the damaged one
  EXPECT_TRUE(store.jitted(ptx, gpu, &problem)) << problem;
  fs::remove(entries[0]);
  fs::create_directory(entries[0]);
  EXPECT_FALSE(store.keep_jitted(ptx, gpu, cubin, &why));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
}

// What a record or a run says is shown without its control characters: no terminal escape reaches the console, and
// junit.xml holds only characters XML allows.
TEST_F(Untrusted, RecordAndRunTextIsShownSafely) {
  json record = json::parse(text_of(kSource / "suites/fixtures/block-scale-record-nvf4-scale-bits-7.json"));
  record["emulated"] = false;
  record["device"] = {{"name", "GPU\u001b[2J\u001b[31mred"}, {"uuid", "GPU-\u001b]0;x\u0007"}, {"driver_version", "1"},
                      {"driver_api_version", 13000}};
  const fs::path path = file("record.json", record.dump());
  const std::string form = record["forms"][0]["form"];
  const CommandResult run = mmasp({"run", "--emulator", "--model-record", path.string(), "--filter", form, "--cases", "4",
                                   "--special-generated", "1", "--no-compile", "--out", (dir_ / "out").string()});
  EXPECT_EQ(run.output.find('\x1b'), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("GPU\\x1b[2J"), std::string::npos) << run.output;
  json baseline = json::parse(text_of(kBaseline));
  baseline["run"]["host"] = "host\xef\xbf\xbe\xef\xbf\xbf-\xff";
  const fs::path odd = file("odd-run.json", baseline.dump(1, ' ', false, json::error_handler_t::ignore));
  const fs::path reports = dir_ / "reports";
  ASSERT_EQ(mmasp({"report", odd.string(), "--out", reports.string()}).exit_code, 0);
  const std::string junit = text_of(reports / "junit.xml");
  EXPECT_EQ(junit.find("\xef\xbf\xbe"), std::string::npos);
  EXPECT_EQ(junit.find("\xef\xbf\xbf"), std::string::npos);
  if (fs::exists("/usr/bin/xmllint"))
    EXPECT_EQ(run_command({"xmllint", "--noout", (reports / "junit.xml").string()}).exit_code, 0);
}

// A worker whose supervisor is gone (it died before the worker set its death signal) stops without touching --out.
TEST_F(Untrusted, AWorkerWithoutItsSupervisorStopsAtOnce) {
  const fs::path out = dir_ / "out";
  std::vector<std::string> args = small_run(out);
  args.insert(args.end(), {"--worker", "--heartbeat-fd", "2"});
  const CommandResult orphan = mmasp_with({"MMASP_SUPERVISOR_PID=1"}, args);
  EXPECT_EQ(orphan.exit_code, 3) << orphan.output;
  EXPECT_NE(orphan.output.find("its supervisor is gone"), std::string::npos) << orphan.output;
  EXPECT_FALSE(fs::exists(out));
}

// A run in its own process holds --out until its last report is written: a `mmasp report` into the same folder while it
// runs (or right after its pairs, while it writes) is refused, and the run's run.json holds every result.
TEST_F(Untrusted, ARunHoldsItsOutUntilTheLastReport) {
  const fs::path out = dir_ / "out";
  const std::vector<std::string> args = {"run", "--emulator", "--no-compile", "--filter", "*m16n8k16.row.col.f16*",
                                         "--cases", "4000", "--threads", "2", "--isolation", "none", "--out", out.string()};
  auto running = std::async(std::launch::async, [args] { return mmasp(args); });
  int refused = 0, tries = 0;
  while (running.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
    if (!fs::exists(out)) continue;
    const CommandResult report = mmasp({"report", kBaseline, "--out", out.string()});
    ++tries;
    refused += report.exit_code == 2;
    EXPECT_NE(report.exit_code, 0) << "a report was written into a running run's folder: " << report.output;
  }
  const CommandResult done = running.get();
  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_GT(tries, 0) << "the run ended before a report was tried: make it longer";
  EXPECT_EQ(refused, tries);
  const json run = json_of(out / "run.json");
  std::istringstream lines(text_of(out / "results.jsonl"));
  size_t streamed = 0;
  for (std::string line; std::getline(lines, line);) ++streamed;
  EXPECT_EQ(run["results"].size(), streamed) << "run.json lost results to a report written beside the run";
  EXPECT_EQ(run["run"]["command"].get<std::string>().find("report"), std::string::npos);
}

}  // namespace
}  // namespace mmasp
