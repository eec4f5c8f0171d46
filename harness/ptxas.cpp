#include "harness/ptxas.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "harness/parallel.h"
#include "harness/store_warnings.h"
#include "oracle/input_file.h"
#include "oracle/output_file.h"
#include "harness/sha256.h"
#include "harness/temporary_files.h"

extern char** environ;

namespace mmasp {
namespace fs = std::filesystem;

namespace {
std::atomic<bool> g_stop_commands{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_command_stop runs in a signal handler");
}  // namespace

void request_command_stop() { g_stop_commands.store(true); }
bool command_stop_requested() { return g_stop_commands.load(); }

double command_timeout_seconds() {
  const char* text = std::getenv("MMASP_TOOL_TIMEOUT");
  if (!text || !*text) return 300;
  const std::string value = text;
  if (value.size() > 5 || value.find_first_not_of("0123456789") != std::string::npos || std::stoul(value) < 1 ||
      std::stoul(value) > 86400)
    throw std::runtime_error("MMASP_TOOL_TIMEOUT: a whole number of seconds from 1 to 86400 is expected, not '" + value + "'");
  return double(std::stoul(value));
}

CommandResult run_tool(const std::vector<std::string>& argv) {
  return run_command(argv, command_timeout_seconds(), true);
}

CommandResult run_command(const std::vector<std::string>& argv, double timeout_seconds, bool tool) {
  CommandResult result;
  if (tool && command_stop_requested()) {
    result.exit_code = 128 + SIGTERM;
    result.stopped = true;
    result.output = "not run: mmasp was asked to stop";
    return result;
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe() failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // A process group of its own: a timeout or a stop kills the tool and whatever it started, and a terminal's ^C
  // reaches mmasp alone, which then stops its tools itself.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (tool) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawn_error = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(pipe_fds[1]);
  if (spawn_error != 0) {
    close(pipe_fds[0]);
    result.exit_code = 127;
    result.output = "cannot run " + argv[0] + ": " + std::strerror(spawn_error);
    return result;
  }
  const auto deadline = timeout_seconds > 0
                            ? std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds)
                            : std::chrono::steady_clock::time_point::max();
  char buffer[4096];
  bool open = true;
  while (open) {
    if (tool && command_stop_requested()) {
      result.stopped = true;
      break;
    }
    const auto left = timeout_seconds > 0
                          ? std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                          : std::chrono::milliseconds(100);
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    pollfd watched{pipe_fds[0], POLLIN, 0};
    const int ready = poll(&watched, 1, int(std::min<long long>(left.count(), 100)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got > 0) result.output.append(buffer, size_t(got));
    else if (got == 0 || errno != EINTR) open = false;
  }
  close(pipe_fds[0]);
  if (result.stopped || result.timed_out) kill(tool ? -pid : pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // A tool's group may hold children that outlived its own exit (and held no pipe): none may outlive mmasp.
  if (tool) kill(-pid, SIGKILL);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.completed = WIFEXITED(status) && !result.stopped && !result.timed_out;
  if (result.timed_out)
    result.output += "\n" + argv[0] + " did not finish within " + std::to_string(int(timeout_seconds)) +
                     " s (MMASP_TOOL_TIMEOUT) and was killed";
  if (result.stopped) result.output += "\n" + argv[0] + " was killed: mmasp was asked to stop";
  return result;
}

namespace {

std::string last_nonempty_line(const std::string& text) {
  std::istringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  return last;
}

// ptxas states the newest version it knows when given a newer one ("Unsupported .version 99.9; current version is
// '9.0'"), so one probe tells the limit without a table keyed by toolkit release.
std::optional<PtxVersion> probe_max_ptx(const fs::path& ptxas) {
  const fs::path file = write_temporary_file(".version 99.9\n.target sm_80\n.address_size 64\n", ".ptx");
  CommandResult result = run_tool({ptxas.string(), "-arch=sm_80", file.string(), "-o", "/dev/null"});
  fs::remove(file);
  std::smatch match;
  static const std::regex current(R"(current version is '(\d+\.\d+)')");
  if (std::regex_search(result.output, match, current)) return parse_ptx_version(match[1].str());
  return std::nullopt;
}

std::optional<PtxasInfo> try_ptxas(const fs::path& candidate) {
  if (candidate.empty()) return std::nullopt;
  CommandResult result = run_tool({candidate.string(), "--version"});
  if (result.exit_code != 0) return std::nullopt;
  PtxasInfo info;
  info.path = candidate;
  info.version = last_nonempty_line(result.output);
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);)
    if (line.find("release") != std::string::npos) info.version = line;
  info.max_ptx = probe_max_ptx(candidate);
  return info;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

PtxasInfo locate_ptxas(const std::optional<fs::path>& explicit_path) {
  // A ptxas named by the user (--ptxas, then MMASP_PTXAS) is the one to test: when it cannot run, nothing else is
  // tried, or a check of a toolkit update would silently test the old one.
  const auto named = [](const fs::path& path, const std::string& by) {
    if (auto info = try_ptxas(path)) return *info;
    throw PtxasNotFound(by + " names " + path.string() + ", which does not run as ptxas (`" + path.string() +
                        " --version` failed); nothing else is tried in its place");
  };
  if (explicit_path) return named(*explicit_path, "--ptxas");
  if (const char* env = std::getenv("MMASP_PTXAS"); env && *env) return named(env, "MMASP_PTXAS");
  std::vector<fs::path> candidates;
  if (const char* cuda = std::getenv("CUDA_HOME")) candidates.push_back(fs::path(cuda) / "bin" / "ptxas");
#ifdef MMASP_DEFAULT_PTXAS
  candidates.emplace_back(MMASP_DEFAULT_PTXAS);
#endif
  candidates.emplace_back("ptxas");
  std::string tried;
  for (const auto& candidate : candidates) {
    if (auto info = try_ptxas(candidate)) return *info;
    tried += " " + candidate.string();
  }
  throw std::runtime_error("no runnable ptxas (tried:" + tried +
                           "). Install the CUDA toolkit or set CUDA_HOME / MMASP_PTXAS.");
}

fs::path default_ptxas_cache_dir() {
  if (const char* env = std::getenv("MMASP_CACHE_DIR")) return fs::path(env) / "ptxas";
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return fs::path(xdg) / "mmasp" / "ptxas";
  if (const char* home = std::getenv("HOME")) return fs::path(home) / ".cache" / "mmasp" / "ptxas";
  return fs::temp_directory_path() / "mmasp-ptxas-cache";
}

Ptxas::Ptxas(PtxasInfo info, fs::path cache_dir, unsigned jobs)
    : info_(std::move(info)), cache_dir_(std::move(cache_dir)), jobs_(jobs ? jobs : 1),
      cache_writable_(std::make_shared<std::atomic<bool>>(true)) {
  if (cache_dir_.empty()) return;
  std::error_code error;
  fs::create_directories(cache_dir_, error);
  if (error) {
    cache_writable_->store(false);
    warn_once("ptxas-cache-write", "ptxas cache " + cache_dir_.string() + " cannot be created (" + error.message() +
                                       "): compile conformance runs uncached");
  }
}

std::string Ptxas::cache_key(const AssembleJob& job) const {
  std::string material = info_.path.string();
  material += '\0' + info_.version + '\0' + job.target + '\0' + job.ptx;
  return sha256_hex(material);
}

namespace {

// ptxas reads its input from a file: a fresh one per call (in this process's temporary directory), so parallel calls
// never share one.
std::string write_temporary_ptx(const std::string& ptx) { return write_temporary_file(ptx, ".ptx").string(); }

}  // namespace

AssembleResult Ptxas::run_ptxas(const AssembleJob& job) const {
  const std::string name = write_temporary_ptx(job.ptx);
  CommandResult run = run_tool({info_.path.string(), "-arch=" + job.target, name, "-o", "/dev/null"});
  fs::remove(name);
  AssembleResult result;
  result.exit_code = run.exit_code;
  result.accepted = run.exit_code == 0;
  result.completed = run.completed;
  result.diagnostics = replace_all(run.output, name, "input.ptx");
  return result;
}

std::optional<std::string> Ptxas::compile_cubin(const AssembleJob& job, std::string* diagnostics) const {
  const std::string name = write_temporary_ptx(job.ptx);
  const std::string cubin = name + ".cubin";
  CommandResult run = run_tool({info_.path.string(), "-arch=" + job.target, name, "-o", cubin});
  fs::remove(name);
  if (diagnostics) *diagnostics = replace_all(run.output, name, "input.ptx");
  std::optional<std::string> bytes;
  if (run.exit_code == 0) {
    std::ifstream in(cubin, std::ios::binary);
    bytes = std::string(std::istreambuf_iterator<char>(in), {});
  }
  fs::remove(cubin);
  return bytes;
}

namespace {

std::string cache_checksum(const std::string& key, int exit_code, const std::string& diagnostics) {
  return sha256_hex(key + '\0' + std::to_string(exit_code) + '\0' + diagnostics);
}

}  // namespace

AssembleResult Ptxas::assemble(const AssembleJob& job) const {
  // The cache speeds things up and is trusted for nothing else. A missing, damaged or edited entry (its checksum no
  // longer holds) is assembled again and rewritten; anything at an entry's name that is not a regular file (a
  // directory, a FIFO: never opened, so never waited on) is said and left alone; a cache that cannot be written is
  // used uncached. The checksum catches damage, not forgery: it is unkeyed, and the cache is not a security boundary
  // (docs/compile-report.md).
  fs::path entry;
  bool keep = !cache_dir_.empty();
  if (keep) {
    const std::string key = cache_key(job);
    entry = cache_dir_ / key.substr(0, 2) / (key + ".json");
    std::error_code missing;
    const fs::file_status status = fs::symlink_status(entry, missing);
    if (!missing && fs::exists(status)) {
      if (!fs::is_regular_file(status)) {
        warn_once("ptxas-cache-entry", "ptxas cache: " + entry.string() + " is not a regular file; left alone, and its "
                                       "case is assembled uncached");
        keep = false;
      } else {
        try {
          const nlohmann::json json = read_json_file(entry, kMaxSmallJsonBytes, "a ptxas cache entry");
          if (json.is_object() && json.contains("exit_code") && json["exit_code"].is_number_integer() &&
              json.contains("diagnostics") && json["diagnostics"].is_string() && json.contains("sha256") &&
              json["sha256"] == cache_checksum(key, json["exit_code"].get<int>(), json["diagnostics"].get<std::string>())) {
            AssembleResult result;
            result.exit_code = json["exit_code"].get<int>();
            result.accepted = result.exit_code == 0;
            result.diagnostics = json["diagnostics"].get<std::string>();
            result.from_cache = true;
            return result;
          }
        } catch (const InputFileError&) {
          // Unreadable or not JSON: made again below.
        }
      }
    }
  }
  AssembleResult result = run_ptxas(job);
  // A ptxas that could not start, or was killed (by a signal: out of memory, a timeout, ^C), says nothing about the
  // PTX, so its result is never cached: only a verdict ptxas reached by itself is.
  if (keep && cache_writable_->load() && result.completed && result.exit_code != 127) {
    try {
      std::error_code error;
      fs::create_directories(entry.parent_path(), error);
      if (error) throw OutputFileError("cannot write " + entry.parent_path().string() + ": " + error.message());
      write_file_atomically(entry, nlohmann::json{{"exit_code", result.exit_code},
                                                  {"diagnostics", result.diagnostics},
                                                  {"sha256", cache_checksum(entry.stem().string(), result.exit_code,
                                                                            result.diagnostics)}}
                                       .dump());
    } catch (const OutputFileError& error) {
      cache_writable_->store(false);
      warn_once("ptxas-cache-write", std::string("ptxas cache: ") + error.what() + "; compile conformance goes on uncached");
    }
  }
  return result;
}

std::vector<AssembleResult> Ptxas::assemble_all(const std::vector<AssembleJob>& jobs,
                                                const std::function<void(size_t, size_t)>& on_done) const {
  std::vector<AssembleResult> results(jobs.size());
  std::atomic<size_t> done{0};
  std::mutex report;
  parallel_for(
      jobs.size(), jobs_,
      [&](size_t i) {
        if (command_stop_requested()) {
          results[i].completed = false;
          results[i].exit_code = 128 + SIGTERM;
          results[i].diagnostics = "not run: mmasp was asked to stop";
        } else {
          results[i] = assemble(jobs[i]);
        }
        const size_t finished = ++done;
        if (on_done) {
          std::lock_guard lock(report);
          on_done(finished, jobs.size());
        }
      },
      1);
  return results;
}

}  // namespace mmasp
