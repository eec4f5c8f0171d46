// Injected faults that prove the judging tiers: a catalogue of defects a GPU, a driver or a compiler could plausibly
// have — layout slips, metadata and selector errors, swapped registers, rare bit flips, wrong special values, and
// changes of the arithmetic that stay inside the spec bound — applied to any backend (the GPU or the emulator) by
// wrapping it. `mmasp selftest --faults` runs the default suites through each and reports which tier caught it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "oracle/fragments.h"
#include "oracle/numeric_model.h"

namespace mmasp {

enum class FaultKind {
  registers,   // the input registers are changed before the instruction runs (layout, metadata, selector slips)
  selector,    // the instruction runs with selector 0 whatever the registers were packed for
  output,      // D is changed after the instruction ran (bit flips, special values, swapped D registers)
  numerics,    // D is what the model computes with one parameter changed (in-bound arithmetic changes)
  datapath,    // D is what the datapath computes with one fault of its fault model active (oracle/fault_model.h)
};

struct Fault {
  std::string id;              // "fraction-bits-24"
  std::string description;
  FaultKind kind = FaultKind::output;
  // A change the spec bound may well not see (an in-bound arithmetic change, a one-ulp or low-bit flip, the sign of a
  // value the bound covers): the model tier's job. Where no bit-exact model judges a float form, the selftest lists
  // such a fault's misses as unseeable there instead of as missed.
  bool in_bound = false;
  // Whether the fault can touch this form and selector at all (a register swap needs two registers, a numerics
  // change a model, a selector slip a selector other than 0).
  std::function<bool(const Form&, int selector)> applies;
  // registers: changes one case's warp registers. output: changes one case's D (M x N codes); `index` is the
  // case's position in the batch, `salt` a per-batch value, for rare faults.
  std::function<void(const Form&, WarpRegisters&)> on_registers;
  std::function<void(const Form&, std::vector<uint32_t>& d, uint64_t index, uint64_t salt)> on_output;
  // numerics: the parameter change ("name=value"); a function of the form where it depends on the shape.
  std::function<std::string(const Form&)> model_change;
  // datapath: the fault's id in the form's fault model ("product[0].bit0.sa1"); the catalogue's ids are "datapath:"
  // and this.
  std::string datapath_fault;

  // The simple output and register changes also as data, from which on_output / on_registers are made, so that the
  // GPU-resident kernel applies the very same change (resident/resident.h).
  struct OutputChange {
    int element = 0;          // row-major D element (modulo M x N)
    int bit = 0;              // flipped bit; -1: the sign bit
    bool to_zero = false;     // the element set to +0 instead
    uint64_t one_in = 1;      // the share of cases struck (1: every case)
  };
  std::optional<OutputChange> output_change;
  struct RegisterChange {
    int swap_operand = -1;    // registers 0 and 1 of this operand swapped (0 A, 1 B, 2 C)
    int rotate_operand = -1;  // the 16-bit halves of register 0 of this operand swapped
    uint32_t e_xor = 0;       // the metadata register xor-ed with this
  };
  std::optional<RegisterChange> register_change;
};

const std::vector<Fault>& fault_catalog();
// The model parameters whose site table a datapath fault names its sites by: the form's sm_90 record, else the
// published dense hypothesis (integer forms: none).
std::optional<ModelParameters> datapath_site_parameters(const Form& form);
// A numerics fault's parameters: `truth` with the fault's change applied.
ModelParameters faulty_parameters(const Fault& fault, const Form& form, const ModelParameters& truth);

// Faults of the process rather than of the arithmetic, for the watchdog's own tests (mmasp run --inject-worker-fault,
// test-only): a launch that never returns, a process that crashes, an instruction that traps and loses the context.
enum class ProcessFault { hang, crash, trap };
std::string_view name(ProcessFault fault);               // "hang", "crash", "trap"
std::optional<ProcessFault> process_fault_named(std::string_view text);
// A kernel with the harness's entry point and parameters (ptx_emitter.h) that spins forever on a volatile load of
// its poisoned output (hang) or executes `trap` (trap), for `target`.
std::string process_fault_kernel(ProcessFault fault, const Target& target);
// A fault of the catalogue, or any fault of the datapath's fault model as "datapath:<id>" (`mmasp coverage` prints
// the ids); nullptr when there is none.
const Fault* find_fault(const std::string& id);

// Runs cases on `inner` with `fault` applied. `arithmetic` gives the form's true model parameters (numerics faults
// start from them). Counts the cases whose D the fault changed (it also runs the clean instruction to know).
class FaultyBackend final : public Backend {
 public:
  FaultyBackend(Backend& inner, const Fault& fault, ModelLookup arithmetic);
  std::string description() const override;
  bool is_hardware() const override { return inner_.is_hardware(); }
  std::string architecture() const override { return inner_.architecture(); }
  bool supports(const Form& form, std::string* why) const override { return inner_.supports(form, why); }
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override;
  uint64_t changed_cases() const { return changed_; }
  uint64_t cases_run() const { return cases_; }

 private:
  Backend& inner_;
  const Fault& fault_;
  ModelLookup arithmetic_;
  uint64_t batches_ = 0, changed_ = 0, cases_ = 0;
};

}  // namespace mmasp
