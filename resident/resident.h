// The GPU-resident path (issue #13): cases are drawn, run and judged on the GPU itself, so a run judges as many cases
// as the tensor cores and the model's integer arithmetic can get through, not as many as the host can pack and copy.
//
//  - The cases are the random suite's: the same SplitMix64 streams, distributions and indices as the host path
//    (generators/portable_case.h draws them from tables made of the bulk generator's own plan; a CPU test proves
//    every element equal, and the GPU test suites/gpu_resident_test.cpp proves the GPU draws them too). Any case a
//    resident run names by its index is regenerated alone on the host.
//  - Every element of D is judged on the device by the bit-exact model with the pair's verified parameters
//    (oracle/model_arithmetic.h, the code model_result runs) or exactly (integer forms). The model is exact for
//    every input (a 128-bit aligned sum), so no case is sent back for want of precision: the counter for that is
//    structurally zero and is not kept.
//  - Only counters and the indices of deviating cases come back (a bounded buffer; what does not fit is counted).
//    The host replays each index through the normal backend path and the exact oracle (run/nightly.cpp).
//
// The kernels are compiled by nvcc at build time and embedded in the binary as three images (resident_source.h,
// CMakeLists.txt): an sm_90a cubin, the fast path on sm_90, and PTX for compute_89 and compute_80, which the driver
// JIT-compiles on any other sm_80+ GPU (and keeps in its compute cache, so only a first run pays for it). Not NVRTC at
// run time: libnvrtc is 100+ MB and absent on GPU runners that have only a driver, while the kernel depends on
// nothing that is known only at run time (the form's instruction is a switch; everything else is tables).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/case_tables.h"
#include "harness/cuda_driver.h"
#include "harness/fault_injection.h"
#include "harness/module_store.h"
#include "resident/resident_abi.h"
#include "resident/resident_source.h"
#include "oracle/numeric_model.h"

namespace mmasp {

// The host's copy of one pair's tables; `tables` points into the vectors (re-point for a GPU: resident.cpp).
struct ResidentPairTables {
  resident::PairTables tables;
  gen::PortableCaseTables cases;
  std::vector<uint32_t> layouts;
};
// `model`: the verified parameters for a float form (required), ignored for integer forms. Throws
// std::invalid_argument for a pair without a resident kernel (has_resident_kernel). `image`: the layouts of the
// specialised kernels (dense_over_codes, narrow_over_codes, narrow_fp8_blocks) only where the image holds them
// (holds_specialised_kernels); the cases and their judgement are the same either way.
ResidentPairTables resident_pair_tables(const Form& form, int selector, const ModelParameters* model,
                                        ResidentImage image = ResidentImage::sm90a_cubin);
// The layouts of a warp's shared memory (resident_kernel.cuh picks one per kernel): the case and then its decoded
// words (every kernel but these), B's narrow words over the codes (the narrow-over-codes kernels), and the fp8
// kernel's, A's words over the nibbles as well.
enum class WarpLayout { case_then_words, narrow_over_codes, fp8 };
// Shared-memory words per warp a kernel of that layout uses for a pair: the one place the launch sizes it.
uint32_t resident_shared_words(const resident::PairTables& p, WarpLayout layout);
// A test-only fault of the catalogue as the kernel applies it, or nullopt (with why) where it cannot.
std::optional<resident::Fault> resident_fault(const Fault& fault, const Form& form, const ModelParameters* truth,
                                              std::string* why);

struct ResidentCounts {
  uint64_t generated = 0, checked = 0, deviating = 0, recorded = 0;
  uint64_t fault_changed = 0;   // with a test-only fault: cases whose D it changed
  uint64_t overflowed() const { return deviating - recorded; }
};
// The resident kernels (resident_source.h builds them from one body; docs/resident.md says why each exists), and the
// one function that says which of them judges a pair. ResidentPath::launch runs what it says, and run.json names it
// (results[].resident.kernel).
enum class ResidentKernel {
  general,          // the general model, numerics and register faults
  lean,             // narrow-model and integer pairs, output faults: 1,024-thread blocks
  lean_768,         // the same for pairs of which shared memory holds fewer than 32 warps: 768 threads, 80 registers
  lean_dense,       // integer pairs whose dense bytes go over their codes (m16n8k128)
  lean_dense_768,   // the same, where shared memory holds fewer than 32 of their warps
  lean_fp8,         // narrow e4m3/e5m2 pairs with the sm_90 record's blocks
  lean_narrow,      // the other pairs whose narrow words go over their codes (m16n8k32 bf16)
  lean_narrow_f16,  // the same with f16 operands as f32 words (m16n8k32 f16)
  lean_k16,         // the lean kernel with m16n8k16's case dimensions as constants
  lean_k16_f16,     // the same with f16 operands as f32 words
};
std::string_view name(ResidentKernel kernel);   // "general", "lean", "lean-768", ...
// Which kernel judges a pair with these tables: the general one for a float pair of the general model or with a
// numerics or register fault, else the lean kernel of the pair's layout. `shared_optin_bytes`: the shared memory a
// block may have on the device (a pair of which fewer than 32 warps fit runs a 768-thread kernel, unless
// `wide_lean_always`). An image without the specialised kernels (holds_specialised_kernels) runs the lean one;
// std::logic_error for tables with a specialised layout there (resident_pair_tables of another image).
ResidentKernel resident_kernel_for(const resident::PairTables& tables, resident::Fault::Kind fault, size_t shared_optin_bytes,
                                   bool wide_lean_always = false, ResidentImage image = ResidentImage::sm90a_cubin);

struct ResidentResult {
  ResidentCounts counts;
  std::string kernel;                        // the kernel that judged the cases (name(ResidentKernel))
  std::vector<uint64_t> deviating_indices;   // sorted; at most the capacity asked for
  double seconds = 0;                        // the launches alone
};
// A case and its D as the GPU drew and computed it (dump mode).
struct ResidentDump {
  MmaCase test;
  std::vector<uint32_t> d;   // M x N codes
};
// The D the resident path judges a case against: the exact reference's codes for an integer form, the model's
// (`model`, which a float form must have; std::invalid_argument without one) for a float form.
std::vector<uint32_t> resident_expected_d(const MmaCase& test, const ModelParameters* model);
// Where dumped cases (cases first, first + 1, ... of the random stream `stream_seed`) differ from the host's: each
// operand against the bulk generator's case, and D against the model's (float forms, `model`) or the exact
// reference's (integer forms). Empty where all agree; else the first difference, named. What gpu_resident_test asks
// of every pair, and what resident_benchmark asks of a form before it times it: a kernel image that draws or judges
// other cases than the host's (a variant built from other tables, say) is not measured.
std::string dump_disagreement(const Form& form, const ModelParameters* model, uint64_t stream_seed, uint64_t first,
                              const std::vector<ResidentDump>& dumped);

// Which image a ResidentPath loads: automatic takes the sm_90a cubin on an sm_90 device and PTX elsewhere (compute_89
// from sm_89 on, compute_80 below); ptx forces PTX (to show on sm_90 what another GPU runs); cubin refuses any device
// but sm_90.
enum class ResidentImageChoice { automatic, cubin, ptx };
std::string_view name(ResidentImageChoice choice);   // "auto", "cubin", "ptx"

class ResidentPath {
 public:
  // Throws std::runtime_error when this build has no resident kernel image, no image fits the device (below sm_80,
  // or cubin forced on another architecture) or the device cannot load it.
  // `image_file`, when not empty, is loaded in place of the embedded image `choice` picks: a variant of the kernels
  // built by hand (generated/resident_kernels_*.cu compiled by nvcc as CMakeLists.txt does), so that a change to the
  // kernels can be measured without rebuilding the binary (docs/resident.md, "Measuring a change to the kernels").
  // A PTX image is JIT-compiled by the driver for this GPU (every core), and the result kept in `store` (when given)
  // by the PTX, the GPU's architecture and the driver's version: a later path on the same GPU and driver loads it
  // from there (image_load()).
  explicit ResidentPath(CudaDevice& device, ResidentImageChoice choice = ResidentImageChoice::automatic,
                        const std::string& image_file = {}, const ModuleStore* store = nullptr);
  ~ResidentPath();
  static bool built();   // whether the kernel images were compiled into this binary

  ResidentImage image() const { return image_; }
  double load_seconds() const { return load_seconds_; }   // loading the image (a PTX image's JIT, when not stored)
  // How the image was loaded: a cubin as built, a PTX image JIT-compiled now (jit_seconds), or its JIT from the store.
  enum class ImageLoad { cubin, jit_compiled, from_store };
  ImageLoad image_load() const { return image_load_; }
  double jit_seconds() const { return jit_seconds_; }
  // Why a JIT just made is not kept in the store, or why a kept one was not used ("" when neither).
  const std::string& store_problem() const { return store_problem_; }
  // Whether this path runs the form: its image holds the form, and the form is legal on the device's target.
  bool covers(const Form& form, std::string* why = nullptr) const;

  // Cases [first, first + count) of the random stream `stream_seed` (the suite's seed for the pair, as
  // CaseSeeds(stream_seed, form) takes it), judged on the GPU. `capacity`: deviating indices kept.
  ResidentResult check(const Form& form, int selector, const ModelParameters* model, uint64_t stream_seed,
                       uint64_t first, uint64_t count, const resident::Fault* fault = nullptr, uint32_t capacity = 4096);
  // Cases drawn only (mode draw), or drawn and run without a judge (mode run), for the benchmark's breakdown.
  ResidentResult stage(const Form& form, int selector, const ModelParameters* model, resident::Mode mode, uint64_t count);
  // The bare instruction: `per_warp` instructions in every warp of a full grid. Returns seconds; `total` the count.
  double issue(const Form& form, int selector, const ModelParameters* model, uint64_t per_warp, uint64_t* total);
  // Whether the lean kernels' warps keep together by scheduler (resident::Launch::phase_barrier): by default for
  // float pairs only (resident.cpp says why); the benchmark's --phase-barrier on|off measures the kernels with it
  // everywhere or nowhere. The cases and their judgement are the same either way.
  enum class PhaseBarrier { float_pairs, on, off };
  void set_phase_barrier(PhaseBarrier choice) { phase_barrier_ = choice; }
  // At most this many warps in a lean kernel's block (0: as many as its launch bounds and shared memory allow), in
  // steps of 4 (one per scheduler): the benchmark's --max-warps, to measure what occupancy is worth to a form. The
  // cases and their judgement are the same either way.
  void set_max_lean_warps(unsigned warps) { max_lean_warps_ = warps / 4 * 4; }
  // Whether a pair whose warps shared memory holds fewer than 32 of runs the 1,024-thread lean kernel (64 registers)
  // with as many warps as fit, instead of the 768-thread one (80 registers): the benchmark's --lean-kernel wide, to
  // tell what the registers are worth from what the warps are.
  void set_wide_lean_kernel_always(bool always) { wide_lean_always_ = always; }
  // Tests: every launch goes to the kernel named (resident_source.h), whatever the pair, so that a test can show that
  // a kernel of one shape refuses a pair it does not take (it traps, and the launch fails, leaving the CUDA context
  // unusable: a process of its own). Empty: the kernels resident.cpp picks. std::runtime_error for a name the image
  // lacks.
  void send_every_pair_to(const std::string& kernel);
  // The cases [first, first + count) as drawn on the GPU, and the hardware's D.
  std::vector<ResidentDump> dump(const Form& form, int selector, const ModelParameters* model, uint64_t stream_seed,
                                 uint64_t first, uint32_t count);

 private:
  struct Launched;
  Launched launch(const Form& form, int selector, const ModelParameters* model, resident::Launch launch, uint64_t warps);
  CudaDevice& device_;
  ResidentImage image_ = ResidentImage::sm90a_cubin;
  double load_seconds_ = 0, jit_seconds_ = 0;
  ImageLoad image_load_ = ImageLoad::cubin;
  std::string store_problem_;
  std::shared_ptr<CudaModule> module_;
  void* kernel_ = nullptr;        // kResidentKernel: every pair
  void* lean_kernel_ = nullptr;   // kResidentLeanKernel: narrow-model and integer pairs
  void* lean_768_kernel_ = nullptr;   // kResidentLean768Kernel: the same, 80 registers, at most 768 threads
  void* lean_fp8_kernel_ = nullptr;   // kResidentLeanFp8Kernel: narrow fp8 pairs with the sm_90 blocks only
  void* lean_dense_kernel_ = nullptr;       // kResidentLeanDenseKernel: integer pairs with dense_over_codes only
  void* lean_dense_768_kernel_ = nullptr;   // kResidentLeanDense768Kernel: the same, 80 registers, at most 768 threads
  void* lean_narrow_kernel_ = nullptr;      // kResidentLeanNarrowKernel: narrow_over_codes pairs but fp8
  void* lean_k16_kernel_ = nullptr;         // kResidentLeanK16Kernel: the lean kernel's pairs of kResidentK16Dims
  void* lean_k16_f16_kernel_ = nullptr;     // kResidentLeanK16F16Kernel: those of them with f16_words_fit
  void* lean_narrow_f16_kernel_ = nullptr;  // kResidentLeanNarrowF16Kernel: the narrow kernel's with f16_words_fit
  int multiprocessors_ = 0;
  int shared_optin_ = 0;   // dynamic shared memory one block may have (bytes)
  PhaseBarrier phase_barrier_ = PhaseBarrier::float_pairs;
  unsigned max_lean_warps_ = 0;
  bool wide_lean_always_ = false;
  void* every_pair_kernel_ = nullptr;   // send_every_pair_to's
};

}  // namespace mmasp
