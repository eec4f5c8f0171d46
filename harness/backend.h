// Where batches of cases execute: a GPU through the driver API (two compile paths), or the CPU emulator. Both take
// the same per-lane input records and return the same output records, so everything above them is shared.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "harness/cuda_driver.h"
#include "harness/module_store.h"
#include "oracle/instruction_space.h"
#include "oracle/numeric_model.h"
#include "oracle/target.h"

namespace mmasp {

enum class CompilePath { driver_jit, toolkit };
std::string_view name(CompilePath path);   // "driver-jit", "toolkit"

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string description() const = 0;
  virtual bool is_hardware() const = 0;     // false: results are "emulated", never hardware conformance
  // Whether the form can run here; `why` (when not) is the NotSupported reason.
  virtual bool supports(const Form& form, std::string* why) const = 0;
  // Runs `cases` cases of one form and selector: input holds cases*32 lane records (ptx_emitter.h).
  virtual std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) = 0;
  // Whether later batches can still run here: false once a GPU context is lost (an instruction trapped), after which
  // every call fails with the same sticky error and only a new process gets a working context.
  virtual bool usable() const { return true; }
  // The device's architecture ("sm_90") on hardware, "" on the emulator: what a saved case file records, so that
  // `mmasp eval` judges it by that architecture's model.
  virtual std::string architecture() const { return ""; }
};

// Executes the register-level inputs on the CPU: each lane record is read back into registers, the registers into
// a case through the oracle's layouts (exactly what the instruction reads), and D is the oracle's reference,
// rounded once, written back through the D layout. Undefined inputs give a fixed pattern (0x7FBADBAD).
//
// With a model (`arithmetic`), float forms that have parameters there compute D with the bit-exact model instead of
// the exact reference: the emulator then stands in for a device of that arithmetic (characterize's and the fault
// catalogue's own tests use it).
class EmulatorBackend final : public Backend {
 public:
  explicit EmulatorBackend(unsigned threads = 1, ModelLookup arithmetic = {}, std::string arithmetic_name = "")
      : threads_(threads), arithmetic_(std::move(arithmetic)), arithmetic_name_(std::move(arithmetic_name)) {}
  std::string description() const override {
    return arithmetic_ ? "CPU emulator (model of " + arithmetic_name_ + "; emulated, not hardware)"
                       : "CPU emulator (oracle reference; emulated, not hardware)";
  }
  const ModelLookup& arithmetic() const { return arithmetic_; }
  bool is_hardware() const override { return false; }
  bool supports(const Form&, std::string*) const override { return true; }
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override;

 private:
  unsigned threads_;   // host threads that emulate a batch
  ModelLookup arithmetic_;
  std::string arithmetic_name_;
};

class GpuBackend final : public Backend {
 public:
  // store: where toolkit cubins come from (required for CompilePath::toolkit).
  GpuBackend(std::shared_ptr<CudaDevice> device, CompilePath path, const ModuleStore* store);
  std::string description() const override;
  bool is_hardware() const override { return true; }
  bool supports(const Form& form, std::string* why) const override;
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override;
  bool usable() const override { return device_->usable(); }
  std::string architecture() const override { return "sm_" + std::to_string(device_->sm()); }

  const Target& target() const { return target_; }
  CompilePath path() const { return path_; }
  // The module's machine code, for disassembly: the toolkit's cubin, or the one the driver's JIT makes — the very
  // code this backend runs (the driver-JIT path JITs each module once and loads that cubin).
  std::string cubin(const Form& form, int selector);
  std::string ptx(const Form& form, int selector) const;
  CudaDevice& device() { return *device_; }

 private:
  std::shared_ptr<CudaModule> module(const Form& form, int selector);

  std::shared_ptr<CudaDevice> device_;
  CompilePath path_;
  const ModuleStore* store_;
  Target target_;
  std::map<std::pair<const Form*, int>, std::shared_ptr<CudaModule>> modules_;
  std::map<std::pair<const Form*, int>, std::string> jit_cubins_;   // driver-JIT path only
};

// The conformance target of a device of compute capability `sm` (sm_90 -> sm_90a), or nullopt.
std::optional<Target> target_for_sm(int sm);

// Packs a batch, runs it, and returns each case's D (M x N codes). `selector` is the instruction's; each case's
// registers are laid out for its own selector (the two differ only in undefined-behaviour probes). Packing and
// unpacking use `threads` host threads: on a GPU runner they, not the GPU, bound the throughput.
std::vector<std::vector<uint32_t>> execute(Backend& backend, const Form& form, int selector,
                                           const std::vector<MmaCase>& cases, unsigned threads = 1);

}  // namespace mmasp
