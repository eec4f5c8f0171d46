// Undefined behaviour on a GPU runs in processes of its own (`mmasp ub-probe`): an instruction that traps leaves its
// CUDA context unusable, and that must not take the rest of the run with it. One process runs many jobs (a context
// costs a good part of a second to create) and stops after a job that faulted; the parent starts the next process
// where it stopped. A job whose process died under it is reported as such and not run again. Nothing here is judged:
// every result is UB-not-judged.
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/backend.h"
#include "reports/run_record.h"

namespace mmasp::run {

// One job: the UB suite of a selector (out_of_range -1), or one out-of-range selector value.
struct UbJob {
  const Form* form = nullptr;
  int selector = 0;
  int out_of_range = -1;
};
// The job's spelling on the child's command line: "opcode@selector@value".
std::string ub_job_text(const UbJob& job);
UbJob parse_ub_job(const std::string& text);   // UsageError when malformed

// The exit status of a child that stopped after a job that faulted (its line was printed).
constexpr int kExitUbBatchStopped = 3;

struct UbChildOptions {
  uint64_t seed = 1;
  int device = 0;
  CompilePath path = CompilePath::toolkit;
  std::string modules;
  uint32_t cases = 512;
  unsigned threads = 1;
};

// The child: runs the jobs on `backend`, one JSON line per finished job ({"job": i, "line": ...}) on `out`.
// Returns 0, or kExitUbBatchStopped after a job that left the context unusable.
int run_ub_jobs(GpuBackend& backend, const CudaDevice& device, const std::vector<UbJob>& jobs, const UbChildOptions& options,
                std::ostream& out);

// The parent: runs every job of these pairs in child processes, then answers per pair.
class IsolatedUb {
 public:
  void run(const std::vector<std::pair<const Form*, int>>& pairs, const Backend& backend, const UbChildOptions& options);
  // The pair's UB result as the child reported it, or UB-not-judged saying why it has none; selector 0 of a form
  // also carries what each out-of-range selector did.
  ResultRecord result(const Form& form, int selector, const std::string& backend_description) const;

 private:
  std::map<std::string, ResultRecord> results_;   // job text -> the child's result (UB suite jobs)
  std::map<std::string, std::string> outcomes_;   // job text -> what an out-of-range selector did
  std::map<std::string, std::string> deaths_;     // job text -> how its process ended
};

}  // namespace mmasp::run
