// Issue #32: a nightly gate that CI can trust. Each point of what a new user saw, against the real binary: a runner
// without its GPU fails closed, a diff across backends is refused, a failed start leaves --out as it was, reports show
// the command that was typed, the install runs from anywhere, and the small things that misled.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "generators/bulk.h"
#include "harness/ptxas.h"
#include "harness/sha256.h"

namespace mmasp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSource = MMASP_SOURCE_DIR;

const char* binary() { return std::getenv("MMASP_BINARY") ? std::getenv("MMASP_BINARY") : MMASP_BINARY; }

// The binary with no GPU visible, whatever machine runs the test (CUDA_VISIBLE_DEVICES= hides every device from the
// driver, where there is one).
CommandResult mmasp(std::vector<std::string> args) {
  args.insert(args.begin(), {"env", "CUDA_VISIBLE_DEVICES=", binary()});
  return run_command(args);
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every entry under `dir` with a digest of its content: what "as it was" means.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    out[fs::relative(entry.path(), dir).string()] = entry.is_regular_file() ? sha256_hex(text_of(entry.path())) : "dir";
  return out;
}

class Gate : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("mmasp-gate-" + std::to_string(getpid())) / info->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_.parent_path()); }
  static std::vector<std::string> small_run(const fs::path& out) {
    return {"run", "--filter", "*m16n8k16.row.col.f32.bf16*", "--cases", "8", "--special-generated", "2", "--threads", "2",
            "--cache", MMASP_PTXAS_CACHE, "--out", out.string()};
  }
  fs::path dir_;
};

void expect_refusal(const CommandResult& run, int status, const std::string& needle) {
  EXPECT_EQ(run.exit_code, status) << run.output;
  EXPECT_NE(run.output.find(needle), std::string::npos) << "expected to see: " << needle << "\n" << run.output;
}

// 1. A runner that lost its GPU used to go green on the emulator, whatever it was told.
TEST_F(Gate, EveryOptionThatNeedsAGpuFailsWithoutOne) {
  const std::vector<std::vector<std::string>> needs_gpu = {
      {"--backend", "gpu"}, {"--device", "0"}, {"--model", "strict"}, {"--extras", "on"},
      {"--paths", "toolkit"}, {"--resident", "on"}, {"--modules", (dir_ / "m").string()}};
  for (const auto& option : needs_gpu) {
    std::vector<std::string> args = small_run(dir_ / "out");
    args.insert(args.end(), option.begin(), option.end());
    SCOPED_TRACE(option[0] + " " + option[1]);
    const std::string who = option[0] == "--backend" ? "--backend gpu" : option[0] + " " + option[1];
    expect_refusal(mmasp(args), 2, who + " needs a GPU, and there is no usable one here");
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "a refused run wrote its --out";
  }
  // --emulator with an option only a GPU honours contradicts itself.
  std::vector<std::string> args = small_run(dir_ / "out");
  args.insert(args.end(), {"--emulator", "--device", "1"});
  expect_refusal(mmasp(args), 2, "--device 1 needs a GPU, and the run was told to use the emulator");
  // auto without a GPU still runs on the emulator, and says so.
  const CommandResult automatic = mmasp(small_run(dir_ / "auto"));
  EXPECT_EQ(automatic.exit_code, 0) << automatic.output;
  EXPECT_NE(automatic.output.find("every result below is emulated"), std::string::npos);
}

// 1. An emulated run diffed "0 regression(s)" against the committed H100 baseline.
TEST_F(Gate, ADiffAcrossBackendsIsRefusedUnlessAllowed) {
  ASSERT_EQ(mmasp(small_run(dir_ / "emulated")).exit_code, 0);
  const std::string hardware = (kSource / "evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json").string();
  const std::string emulated = (dir_ / "emulated/run.json").string();
  const CommandResult refused = mmasp({"diff", hardware, emulated});
  expect_refusal(refused, 2, "NOT COMPARABLE: the baseline ran on NVIDIA H100 80GB HBM3 (a GPU), this run on the CPU emulator");
  EXPECT_NE(refused.output.find("--allow-different backend"), std::string::npos) << refused.output;
  const CommandResult allowed = mmasp({"diff", hardware, emulated, "--allow-different", "backend,cases"});
  EXPECT_NE(allowed.exit_code, 2) << allowed.output;
  EXPECT_NE(allowed.output.find("compared although the baseline ran on"), std::string::npos) << allowed.output;
  // The refusal reaches the report of a run given that baseline too.
  std::vector<std::string> with_baseline = small_run(dir_ / "against");
  with_baseline.insert(with_baseline.end(), {"--baseline", hardware});
  ASSERT_EQ(mmasp(with_baseline).exit_code, 0);
  EXPECT_NE(text_of(dir_ / "against/report.html").find("Not compared with the baseline"), std::string::npos);
}

// 5. A failed start used to leave a journal behind that then refused the corrected command, --resume included.
TEST_F(Gate, AUsageErrorLeavesOutAsItWas) {
  const std::vector<std::vector<std::string>> mistakes = {
      {"--targets", "sm_99"}, {"--findings", (dir_ / "no-such-findings.json").string()}, {"--inject-fault", "no-such-fault"},
      {"--model", "strict"}, {"--exclude", "*"}, {"--budget", "5", "--cases", "5"}};
  const fs::path finished = dir_ / "finished";
  ASSERT_EQ(mmasp(small_run(finished)).exit_code, 0);
  const auto before = snapshot(finished);
  for (const auto& mistake : mistakes) {
    SCOPED_TRACE(mistake[0] + " " + mistake[1]);
    for (const fs::path& out : {dir_ / "fresh", finished}) {
      std::vector<std::string> args = small_run(out);
      args.insert(args.end(), mistake.begin(), mistake.end());
      EXPECT_EQ(mmasp(args).exit_code, 2);
      if (out == finished) EXPECT_EQ(snapshot(finished), before);
      else EXPECT_FALSE(fs::exists(out)) << "a refused run created its --out";
    }
    // Under a supervisor (--isolation process) as well: the folder it created for its workers goes again.
    std::vector<std::string> args = small_run(dir_ / "supervised");
    args.insert(args.end(), {"--isolation", "process"});
    args.insert(args.end(), mistake.begin(), mistake.end());
    EXPECT_EQ(mmasp(args).exit_code, 2);
    EXPECT_FALSE(fs::exists(dir_ / "supervised"));
  }
  // The corrected command then simply runs.
  const CommandResult corrected = mmasp(small_run(dir_ / "fresh"));
  EXPECT_EQ(corrected.exit_code, 0) << corrected.output;
}

// 5. The README's `compile --json out/compile.json` followed by `run --out out/` hit "holds an unfinished run".
TEST_F(Gate, CompileJsonThenRunIntoTheSameOut) {
  const fs::path out = dir_ / "out";
  const CommandResult compile = mmasp({"compile", "--targets", "sm_90a", "--filter", "*tf32*", "--cache", MMASP_PTXAS_CACHE,
                                       "--json", (out / "compile.json").string()});
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  const CommandResult run = mmasp(small_run(out));
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

// 6. run.json, report.html and the resume refusal showed `mmasp run --worker --heartbeat-fd 5`.
TEST_F(Gate, TheReportsShowTheCommandThatWasTyped) {
  const fs::path out = dir_ / "out dir";
  std::vector<std::string> args = small_run(out);
  args.insert(args.end(), {"--isolation", "process"});
  const CommandResult run = mmasp(args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string command = json::parse(text_of(out / "run.json"))["run"]["command"].get<std::string>();
  EXPECT_EQ(command.find("--worker"), std::string::npos) << command;
  EXPECT_EQ(command.find("--heartbeat-fd"), std::string::npos) << command;
  EXPECT_EQ(command.find("--user-command"), std::string::npos) << command;
  // Shell-quoted: pasted into a shell, it is the same command again.
  EXPECT_NE(command.find("--filter '*m16n8k16.row.col.f32.bf16*'"), std::string::npos) << command;
  EXPECT_NE(command.find("--out '" + out.string() + "'"), std::string::npos) << command;
  const CommandResult again = run_command({"bash", "-c", "CUDA_VISIBLE_DEVICES= " + command + " --force"});
  EXPECT_EQ(again.exit_code, 0) << command << "\n" << again.output;
}

// 8. Smaller things that misled.
TEST_F(Gate, SmallerThings) {
  expect_refusal(mmasp({"list", "--filter", "bf16"}), 2, "no form matches --filter 'bf16'");
  expect_refusal(mmasp({"emit", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "--target", "sm_80",
                        "--ptx-version", "6.0"}),
                 2, "is illegal (below-min-ptx");
  const CommandResult forced = mmasp({"emit", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "--target", "sm_80",
                                      "--ptx-version", "6.0", "--illegal"});
  EXPECT_EQ(forced.exit_code, 0);
  EXPECT_NE(forced.output.find(".version 6.0"), std::string::npos);
  const CommandResult help = mmasp({"run", "--help"});
  EXPECT_NE(help.output.find("Exit status:"), std::string::npos);
  EXPECT_NE(help.output.find("128+N"), std::string::npos);
  // The committed baselines judge the cases this code draws: a diff against them compares bits, not just statuses.
  for (const char* baseline : {"evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json",
                               "evidence/baselines/h100-sm90-driver580.159.04-budget60/run.json"})
    EXPECT_EQ(json::parse(text_of(kSource / baseline))["run"]["case_streams"].get<std::string>(), gen::case_streams_identity())
        << baseline << " was made with other case streams: remake it on the GPU";
}

// 4. `cmake --install` installed nothing, and a copied binary read findings/findings.json from its checkout. Installed
// into a scratch prefix, moved, and run from / with the source and build folders hidden (a private mount namespace
// puts empty folders over them), mmasp compiles and runs.
TEST_F(Gate, AnInstallRunsFromAnywhereWithoutItsBuild) {
  if (run_command({"unshare", "--user", "--map-root-user", "--mount", "true"}).exit_code != 0)
    GTEST_SKIP() << "cannot hide the build folder: this machine does not allow a private mount namespace (unshare)";
  const fs::path staged = dir_ / "staged", moved = dir_ / "moved", empty = dir_ / "empty";
  const CommandResult install = run_command({"cmake", "--install", MMASP_BUILD_DIR, "--prefix", staged.string()});
  ASSERT_EQ(install.exit_code, 0) << install.output;
  ASSERT_TRUE(fs::exists(staged / "bin/mmasp"));
  ASSERT_TRUE(fs::exists(staged / "share/mmasp/findings/findings.json"));
  fs::rename(staged, moved);
  fs::create_directories(empty);
  const std::string script =
      "mount --bind \"$2\" \"$4\" && mount --bind \"$2\" \"$3\" && cd / && "
      "CUDA_VISIBLE_DEVICES= \"$1/bin/mmasp\" compile --targets sm_90a --filter '*tf32*' --no-cache && "
      "CUDA_VISIBLE_DEVICES= \"$1/bin/mmasp\" run --emulator --filter '*m16n8k8.row.col.f32.tf32*' --cases 4 --no-cache "
      "--out \"$5\" && test ! -e \"$4/CMakeCache.txt\" && echo HIDDEN";
  const CommandResult run = run_command({"unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh",
                                         moved.string(), empty.string(), kSource.string(), MMASP_BUILD_DIR,
                                         (dir_ / "out").string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("HIDDEN"), std::string::npos) << run.output;
  // Without the install's findings file, the error names each place once.
  fs::remove(moved / "share/mmasp/findings/findings.json");
  const CommandResult missing = run_command({"unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                                             "mount --bind \"$2\" \"$3\" && cd / && \"$1/bin/mmasp\" compile --targets sm_90a",
                                             "sh", moved.string(), empty.string(), kSource.string()});
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  const std::string place = (moved / "share/mmasp/findings/findings.json").string();
  const size_t first = missing.output.find(place);
  EXPECT_NE(first, std::string::npos) << missing.output;
  EXPECT_EQ(missing.output.find(place, first + 1), std::string::npos) << "the path is printed twice:\n" << missing.output;
}

}  // namespace
}  // namespace mmasp
