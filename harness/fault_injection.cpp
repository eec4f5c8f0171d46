#include "harness/fault_injection.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "generators/splitmix.h"
#include "harness/fragment_packing.h"
#include "harness/parallel.h"
#include "harness/ptx_emitter.h"
#include "oracle/fault_model.h"
#include "oracle/fragments.h"
#include "oracle/number_format.h"
#include "oracle/numeric_model_table.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

bool any_form(const Form&, int) { return true; }
bool float_with_model(const Form& form, int) { return model_applies(form); }

// A deterministic hash of a case's position, for faults that strike rarely.
uint64_t mix(uint64_t x) { return splitmix(x); }

int elements_per_register(const Form& form) { return 32 / form.a_container_bits; }
int d_bits(const Form& form) { return info(form.d).bits; }   // 16 for f16, 32 for f32 and s32
uint32_t sign_bit(const Form& form) { return 1u << (d_bits(form) - 1); }
FloatClass class_of(const Form& form, uint32_t code) {
  if (form.is_integer()) return FloatClass::normal;
  const auto value = decode(form.d, code);
  return value ? value->cls : FloatClass::nan;
}
uint32_t infinity_code(const Form& form) { return *encode(form.d, HUGE_VAL); }
uint32_t canonical_nan_code(const Form& form) { return sign_bit(form) - 1; }   // 0x7FFF / 0x7FFFFFFF
uint32_t quiet_nan_code(const Form& form) { return *encode(form.d, std::nan("")); }   // 0x7E00 / 0x7FC00000

// The next legal metadata nibble after `nibble` (a different, still defined choice of positions).
uint32_t other_nibble(Sparsity sparsity, uint32_t nibble) {
  const auto patterns = increasing_patterns(sparsity);
  for (size_t p = 0; p < patterns.size(); ++p)
    if (nibble_of(sparsity, patterns[p]) == nibble) return nibble_of(sparsity, patterns[(p + 1) % patterns.size()]);
  return nibble;
}

Fault fault(std::string id, std::string description, FaultKind kind, std::function<bool(const Form&, int)> applies) {
  Fault f;
  f.id = std::move(id);
  f.description = std::move(description);
  f.kind = kind;
  f.applies = std::move(applies);
  return f;
}
Fault registers(std::string id, std::string description, std::function<bool(const Form&, int)> applies,
                std::function<void(const Form&, WarpRegisters&)> change) {
  Fault f = fault(std::move(id), std::move(description), FaultKind::registers, std::move(applies));
  f.on_registers = std::move(change);
  return f;
}
Fault output(std::string id, std::string description, std::function<bool(const Form&, int)> applies,
             std::function<void(const Form&, std::vector<uint32_t>&, uint64_t, uint64_t)> change) {
  Fault f = fault(std::move(id), std::move(description), FaultKind::output, std::move(applies));
  f.on_output = std::move(change);
  return f;
}
Fault numerics(std::string id, std::string description, bool in_bound, std::function<bool(const Form&, int)> applies,
               std::function<std::string(const Form&)> change) {
  Fault f = fault(std::move(id), std::move(description), FaultKind::numerics, std::move(applies));
  f.in_bound = in_bound;
  f.model_change = std::move(change);
  return f;
}
// An output change that can leave D inside the spec bound (a low bit, or the sign of a value the bound covers): where
// no bit-exact model judges a float form, nothing can see it (Fault::in_bound).
Fault may_stay_in_bound(Fault f) {
  f.in_bound = true;
  return f;
}
// Faults said as data (Fault::OutputChange / RegisterChange), applied here as the kernel applies them.
Fault declared_output(std::string id, std::string description, Fault::OutputChange change) {
  Fault f = output(std::move(id), std::move(description), any_form,
                   [change](const Form& form, std::vector<uint32_t>& d, uint64_t index, uint64_t salt) {
                     if (change.one_in > 1 && mix(index ^ (salt << 20)) % change.one_in != 0) return;
                     uint32_t& element = d[size_t(change.element) % d.size()];
                     if (change.to_zero) element = 0;
                     else element ^= change.bit < 0 ? sign_bit(form) : 1u << (change.bit % d_bits(form));
                   });
  f.output_change = change;
  return f;
}
Fault declared_registers(std::string id, std::string description, std::function<bool(const Form&, int)> applies,
                         Fault::RegisterChange change) {
  Fault f = registers(std::move(id), std::move(description), std::move(applies), [change](const Form&, WarpRegisters& w) {
    for (auto& lane : w.lanes) {
      std::vector<uint32_t>* operands[3] = {&lane.a, &lane.b, &lane.c};
      if (change.swap_operand >= 0) std::swap((*operands[change.swap_operand])[0], (*operands[change.swap_operand])[1]);
      if (change.rotate_operand >= 0) {
        uint32_t& word = (*operands[change.rotate_operand])[0];
        word = (word << 16) | (word >> 16);
      }
      lane.e ^= change.e_xor;
    }
  });
  f.register_change = change;
  return f;
}

std::function<std::string(const Form&)> fixed(std::string change) {
  return [change](const Form&) { return change; };
}

std::vector<Fault> build_catalog() {
  std::vector<Fault> c;
  // --- Layout and operand slips in the registers the instruction reads. ---
  c.push_back(declared_registers("a-registers-swapped", "A registers 0 and 1 swapped in every lane (a layout slip)",
                                 [](const Form& f, int) { return f.regs.a >= 2; }, {.swap_operand = 0}));
  c.push_back(declared_registers("b-registers-swapped", "B registers 0 and 1 swapped in every lane",
                                 [](const Form& f, int) { return f.regs.b >= 2; }, {.swap_operand = 1}));
  c.push_back(declared_registers("c-registers-swapped", "C registers 0 and 1 swapped in every lane",
                                 [](const Form& f, int) { return f.regs.c >= 2; }, {.swap_operand = 2}));
  c.push_back(registers("a-rows-shifted", "each lane reads the A registers of the lane 4 above (rows off by one)", any_form,
                        [](const Form&, WarpRegisters& w) {
                          auto copy = w.lanes;
                          for (int l = 0; l < 32; ++l) w.lanes[size_t(l)].a = copy[size_t((l + 4) % 32)].a;
                        }));
  c.push_back(registers("b-columns-shifted", "each lane reads the B registers of its neighbour (lane ^ 1)", any_form,
                        [](const Form&, WarpRegisters& w) {
                          auto copy = w.lanes;
                          for (int l = 0; l < 32; ++l) w.lanes[size_t(l)].b = copy[size_t(l ^ 1)].b;
                        }));
  c.push_back(declared_registers("a-element-order-swapped", "the two halves of A register 0 swapped (element order slip)",
                                 [](const Form& f, int) { return elements_per_register(f) >= 2; }, {.rotate_operand = 0}));
  c.push_back(declared_registers("b-element-order-swapped", "the two halves of B register 0 swapped",
                                 [](const Form& f, int) { return 32 / f.b_container_bits >= 2; }, {.rotate_operand = 1}));
  c.push_back(registers("metadata-nibble-changed", "the lowest metadata nibble of every lane names other positions",
                        any_form, [](const Form& f, WarpRegisters& w) {
                          for (auto& l : w.lanes) l.e = (l.e & ~0xFu) | other_nibble(f.sparsity, l.e & 0xFu);
                        }));
  c.push_back(registers("metadata-high-nibble-changed", "the highest metadata nibble of every lane names other positions",
                        any_form, [](const Form& f, WarpRegisters& w) {
                          for (auto& l : w.lanes) l.e = (l.e & 0x0FFFFFFFu) | (other_nibble(f.sparsity, l.e >> 28) << 28);
                        }));
  c.push_back(declared_registers("metadata-bit-flip", "bit 2 of every lane's metadata flipped (a position index bit)",
                                 any_form, {.e_xor = 0x4u}));
  c.push_back(registers("metadata-lanes-rotated", "each lane reads the metadata of the next quad (lane + 4)", any_form,
                        [](const Form&, WarpRegisters& w) {
                          auto copy = w.lanes;
                          for (int l = 0; l < 32; ++l) w.lanes[size_t(l)].e = copy[size_t((l + 4) % 32)].e;
                        }));
  {
    Fault f;
    f.id = "selector-ignored";
    f.description = "the instruction reads its metadata as if the sparsity selector were 0";
    f.kind = FaultKind::selector;
    f.applies = [](const Form&, int selector) { return selector != 0; };
    c.push_back(f);
  }
  // --- D after the instruction: slips, bit flips, special values. ---
  c.push_back(output("d-registers-swapped", "D elements of register 0 and 1 swapped (row/column slip in D)",
                     [](const Form& f, int) { return f.regs.d >= 2; },
                     [](const Form& f, std::vector<uint32_t>& d, uint64_t, uint64_t) {
                       const int n = f.shape.n;
                       for (int i = 0; i < f.shape.m; ++i)
                         for (int j = 0; j + 1 < n; j += 2) std::swap(d[size_t(i * n + j)], d[size_t(i * n + j + 1)]);
                     }));
  c.push_back(output("d-rows-swapped", "rows g and g+8 of D swapped", any_form,
                     [](const Form& f, std::vector<uint32_t>& d, uint64_t, uint64_t) {
                       const int n = f.shape.n;
                       for (int i = 0; i < 8; ++i)
                         for (int j = 0; j < n; ++j) std::swap(d[size_t(i * n + j)], d[size_t((i + 8) * n + j)]);
                     }));
  c.push_back(declared_output("d-element-stuck-at-zero", "D[5][3] always +0 (a stuck lane)",
                              {.element = 5 * 8 + 3, .to_zero = true}));
  c.push_back(may_stay_in_bound(declared_output("d-lowest-bit-flip", "the lowest bit of D[0][0] flipped in every case (one ulp)",
                                                {.element = 0, .bit = 0})));
  c.push_back(may_stay_in_bound(declared_output("d-lowest-bit-flip-rare", "the lowest bit of D[7][7] flipped in 1 of 1000 cases",
                                                {.element = 63, .bit = 0, .one_in = 1000})));
  c.push_back(may_stay_in_bound(declared_output("d-sign-flip-rare", "the sign of D[9][2] flipped in 1 of 1000 cases",
                                                {.element = 9 * 8 + 2, .bit = -1, .one_in = 1000})));
  c.push_back(declared_output("d-high-mantissa-bit-flip", "mantissa bit 9 of D[3][1] flipped in every case",
                              {.element = 3 * 8 + 1, .bit = 9}));
  c.push_back(may_stay_in_bound(output("d-random-bit-flip-rare", "one random bit of one random element flipped in 1 of 10000 cases",
                     any_form, [](const Form& f, std::vector<uint32_t>& d, uint64_t index, uint64_t salt) {
                       const uint64_t h = mix(index ^ (salt << 20) ^ 0xf11b);
                       if (h % 10000 != 0) return;
                       d[(h >> 20) % d.size()] ^= 1u << ((h >> 40) % uint64_t(d_bits(f)));
                     })));
  c.push_back(output("nan-replaced-by-inf", "every NaN in D replaced by +Inf", float_with_model,
                     [](const Form& f, std::vector<uint32_t>& d, uint64_t, uint64_t) {
                       for (auto& x : d) if (class_of(f, x) == FloatClass::nan) x = infinity_code(f);
                     }));
  c.push_back(output("inf-replaced-by-nan", "every Inf in D replaced by the canonical NaN", float_with_model,
                     [](const Form& f, std::vector<uint32_t>& d, uint64_t, uint64_t) {
                       for (auto& x : d) if (class_of(f, x) == FloatClass::infinite) x = canonical_nan_code(f);
                     }));
  c.push_back(output("nan-payload-changed", "every NaN in D given another payload (0x7fc00000 / 0x7e00)", float_with_model,
                     [](const Form& f, std::vector<uint32_t>& d, uint64_t, uint64_t) {
                       for (auto& x : d) if (class_of(f, x) == FloatClass::nan) x = quiet_nan_code(f);
                     }));
  c.push_back(output("integer-off-by-one-rare", "an s32 result one too large in 1 of 1000 cases",
                     [](const Form& f, int) { return f.is_integer(); },
                     [](const Form&, std::vector<uint32_t>& d, uint64_t index, uint64_t salt) {
                       if (mix(index ^ (salt << 20) ^ 0x1) % 1000 == 0) d[17] += 1;
                     }));
  c.push_back(output("integer-saturation-lost", ".satfinite results wrapped instead of clamped (INT32_MAX -> INT32_MIN)",
                     [](const Form& f, int) { return f.is_integer() && f.satfinite; },
                     [](const Form&, std::vector<uint32_t>& d, uint64_t, uint64_t) {
                       for (auto& x : d) {
                         if (x == 0x7FFFFFFFu) x = 0x80000000u;
                         else if (x == 0x80000000u) x = 0x7FFFFFFFu;
                       }
                     }));
  // --- The arithmetic changed, one model parameter at a time. ---
  c.push_back(numerics("fraction-bits-24", "one fewer fraction bit kept when aligning (24 instead of 25)", true,
                       float_with_model, fixed("fraction_bits=24")));
  c.push_back(numerics("fraction-bits-26", "one more fraction bit kept when aligning", true, float_with_model,
                       fixed("fraction_bits=26")));
  c.push_back(numerics("round-to-nearest", "block sums rounded to nearest even instead of toward zero", true,
                       float_with_model, fixed("block_rounding=nearest-even")));
  c.push_back(numerics("c-after-rounding", "C added after the products were summed and rounded", true,
                       float_with_model, fixed("c_placement=after-products")));
  c.push_back(numerics("block-split-in-two", "the products fused in two blocks of half the size, chained", true,
                       [](const Form& f, int) { return model_applies(f) && f.shape.k / 2 >= 2; },
                       fixed("block_products=half")));
  c.push_back(numerics("truncated-f16-output", "an f16 D rounded toward zero instead of to nearest even", true,
                       [](const Form& f, int) { return model_applies(f) && f.d == ElemType::f16; },
                       fixed("output_rounding=toward-zero")));
  c.push_back(numerics("f16-output-via-f32", "an f16 D rounded from an f32 result (two roundings)", true,
                       [](const Form& f, int) { return model_applies(f) && f.d == ElemType::f16; },
                       fixed("narrow_output=via-f32")));
  c.push_back(numerics("flushed-subnormal-inputs", "subnormal A, B and C elements read as zero", true, float_with_model,
                       fixed("subnormal_inputs=flushed")));
  c.push_back(numerics("flushed-subnormal-results", "subnormal results flushed to zero", true, float_with_model,
                       fixed("subnormal_results=flushed")));
  c.push_back(numerics("floor-shifted-bits", "shifted-out bits dropped from the two's complement value (floor)", true,
                       float_with_model, fixed("shifted_out=floor")));
  c.push_back(numerics("round-shifted-bits", "shifted-out bits rounded to nearest instead of truncated", true,
                       float_with_model, fixed("shifted_out=nearest-even")));
  c.push_back(numerics("leading-bit-alignment", "terms aligned by their exact leading bit, not their exponent fields",
                       true, float_with_model, fixed("alignment=leading-bit")));
  c.push_back(numerics("signed-zero-results", "zero results keep IEEE signs (-0) instead of +0", true, float_with_model,
                       fixed("zero_sign=ieee")));
  c.push_back(numerics("saturating-overflow", "an overflowing sum saturates to the largest finite value", false,
                       float_with_model, fixed("overflow=saturate")));
  c.push_back(numerics("non-canonical-nan", "NaN results are the default quiet NaN, not the canonical one", true,
                       float_with_model, fixed("nan=default-quiet")));
  // --- Block scale (issue #31): where the scale factors multiply, and the rounding of a ue4m3 scale product. ---
  const auto block_scale = [](const Form& f, int) { return model_applies(f) && f.block_scale; };
  const auto ue4m3_scale = [](const Form& f, int) {
    return model_applies(f) && f.block_scale && *f.stype == ElemType::ue4m3;
  };
  c.push_back(numerics("scale-placement-moved", "the scale factors applied where the true arithmetic does not (after "
                       "each scale block's sum instead of per product, or the other way round)", true, block_scale,
                       fixed("scale_placement=other")));
  // A scale product one or two bits short is off by up to 2^-7 of each product: far outside the spec bound, which the
  // spec tier sees as well (not in-bound).
  c.push_back(numerics("scale-product-two-bits-short", "the product of a ue4m3 row and column scale rounded to nearest "
                       "with two significant bits fewer", false, ue4m3_scale, fixed("scale_bits=minus2")));
  c.push_back(numerics("scale-product-truncated", "the product of a ue4m3 row and column scale truncated to one bit "
                       "fewer instead of rounded", false, ue4m3_scale, fixed("scale_bits=minus1,scale_rounding=toward-zero")));
  return c;
}

}  // namespace

ModelParameters faulty_parameters(const Fault& fault, const Form& form, const ModelParameters& truth) {
  std::string change = fault.model_change(form);
  // "half": half the true value (a block split in two whatever its size).
  if (change == "block_products=half")
    change = "block_products=" + std::to_string(std::max(1, std::min(truth.block_products, form.shape.k / 2) / 2));
  // "other": the scale placement the truth does not use; "minusN": N significant bits fewer than the truth keeps of a
  // ue4m3 scale product (at most 8 matter: a product has no more).
  if (change == "scale_placement=other")
    change = truth.scale_placement == ScalePlacement::product ? "scale_placement=block-sum" : "scale_placement=product";
  for (const std::string fewer : {"scale_bits=minus2", "scale_bits=minus1"})
    if (change.starts_with(fewer))
      change = "scale_bits=" + std::to_string(std::max(1, std::min(truth.scale_bits, 8) - (fewer.back() - '0'))) +
               change.substr(fewer.size());
  return with_changes(truth, change);
}

std::optional<ModelParameters> datapath_site_parameters(const Form& form) {
  if (form.is_integer()) return std::nullopt;
  if (auto p = verified_model(form, "sm_90")) return p;
  return published_dense_hypothesis(form);
}

namespace {

Fault datapath_fault(const std::string& fault_id) {
  Fault f = fault("datapath:" + fault_id, "the datapath's fault " + fault_id + " (oracle/fault_model.h)",
                  FaultKind::datapath, [fault_id](const Form& form, int) {
                    if (!fault_model_applies(form)) return false;
                    const auto p = datapath_site_parameters(form);
                    const auto parsed = parse_datapath_fault(form, p ? &*p : nullptr, fault_id);
                    return parsed && undetectable_reason(form, p ? &*p : nullptr, *parsed).empty();
                  });
  // A low bit of a float datapath can stay inside the spec bound: the model tier's job.
  f.in_bound = true;
  f.datapath_fault = fault_id;
  return f;
}

// A sample of the fault model for `selftest --faults`: every stage, both polarities, the transient patterns; each
// applies where the form has the site.
std::vector<Fault> datapath_sample() {
  std::vector<Fault> c;
  for (const char* id : {"a[1].bit3.sa0", "b[2].bit5.sa1", "c.bit2.sa1", "index[3].bit0.sa1", "index[0].bit1.sa0",
                         "product[0].bit0.sa1", "product[5].bit2.sa0", "alignment[2].bit1.sa1", "alignment[c].bit2.sa0",
                         "sum.bit20.sa0", "sum.bit3.sa1", "normalise.bit0.sa1", "sticky.bit0.sa1", "increment.bit0.sa1",
                         "accumulator.bit20.sa1", "d.bit1.sa1", "d.bit9.sa0", "saturation.bit0.sa1",
                         "d.bits0-1.burst@3:e5", "d.bit0.lanes@5:r0", "d.bit0.every16@2:e3"})
    c.push_back(datapath_fault(id));
  return c;
}

}  // namespace

const std::vector<Fault>& fault_catalog() {
  static const std::vector<Fault> catalog = [] {
    std::vector<Fault> c = build_catalog();
    for (Fault& f : datapath_sample()) c.push_back(std::move(f));
    return c;
  }();
  return catalog;
}

const Fault* find_fault(const std::string& id) {
  for (const auto& fault : fault_catalog())
    if (fault.id == id) return &fault;
  if (!id.starts_with("datapath:")) return nullptr;
  // Any fault of the model, made once and kept (the returned pointer stays valid).
  static std::mutex mutex;
  static std::map<std::string, Fault> made;
  const std::string fault_id = id.substr(9);
  bool exists = false;
  for (const Form& form : instruction_space()) {
    if (!fault_model_applies(form)) continue;
    const auto p = datapath_site_parameters(form);
    if (parse_datapath_fault(form, p ? &*p : nullptr, fault_id)) {
      exists = true;
      break;
    }
  }
  if (!exists) return nullptr;
  std::lock_guard lock(mutex);
  return &made.try_emplace(id, datapath_fault(fault_id)).first->second;
}

FaultyBackend::FaultyBackend(Backend& inner, const Fault& fault, ModelLookup arithmetic)
    : inner_(inner), fault_(fault), arithmetic_(std::move(arithmetic)) {}

std::string FaultyBackend::description() const {
  return inner_.description() + " with injected fault " + fault_.id;
}

std::vector<uint32_t> FaultyBackend::run(const Form& form, int selector, const std::vector<uint32_t>& input,
                                         uint32_t cases) {
  // Rare faults strike by a hash of (form, selector, batch, case): different cases in every pair, as a rare hardware
  // defect would, instead of the same batch positions everywhere.
  const uint64_t salt = mix(std::hash<std::string>{}(form.opcode) ^ (uint64_t(selector) << 56)) + ++batches_;
  cases_ += cases;
  std::vector<uint32_t> clean = inner_.run(form, selector, input, cases);
  if (!fault_.applies(form, selector)) return clean;
  const size_t words_in = case_record_words(form, selector), words_out = 32 * size_t(form.regs.d);
  std::vector<uint32_t> faulty;
  switch (fault_.kind) {
    case FaultKind::selector:
      faulty = inner_.run(form, 0, input, cases);
      break;
    case FaultKind::registers: {
      std::vector<uint32_t> changed(input.size());
      parallel_for(cases, 1, [&](size_t c) {
        WarpRegisters registers = registers_from_records(form, selector, input.data() + c * words_in);
        fault_.on_registers(form, registers);
        std::vector<uint32_t> records;
        pack_warp(form, registers, records);
        std::copy(records.begin(), records.end(), changed.begin() + long(c * words_in));
      });
      faulty = inner_.run(form, selector, changed, cases);
      break;
    }
    case FaultKind::datapath: {
      faulty = clean;
      const std::optional<ModelParameters> truth =
          form.is_integer() ? std::nullopt : arithmetic_ ? arithmetic_(form) : std::nullopt;
      if (!form.is_integer() && !truth) return clean;
      const ModelParameters* p = truth ? &*truth : nullptr;
      const auto fault = parse_datapath_fault(form, p, fault_.datapath_fault);
      if (!fault) return clean;
      for (size_t c = 0; c < cases; ++c) {
        const MmaCase test = from_registers(form, registers_from_records(form, selector, input.data() + c * words_in));
        // The case's place in the whole stream, so that a periodic strike keeps its period across batches.
        const auto d = faulty_result(test, p, *fault, cases_ - cases + c);
        if (d) pack_d(form, *d, faulty.data() + c * words_out);
      }
      break;
    }
    case FaultKind::output:
    case FaultKind::numerics: {
      faulty = clean;
      std::optional<ModelParameters> changed;
      if (fault_.kind == FaultKind::numerics) {
        const auto truth = arithmetic_ ? arithmetic_(form) : std::nullopt;
        if (!truth) return clean;
        changed = faulty_parameters(fault_, form, *truth);
      }
      for (size_t c = 0; c < cases; ++c) {
        uint32_t* out = faulty.data() + c * words_out;
        std::vector<uint32_t> d = unpack_d(form, out);
        if (fault_.kind == FaultKind::output) {
          fault_.on_output(form, d, c, salt);
        } else {
          try {
            const MmaCase test = from_registers(form, registers_from_records(form, selector, input.data() + c * words_in));
            d = model_result(test, *changed);
          } catch (const std::invalid_argument&) {
            continue;   // undefined inputs: the model cannot say what the changed arithmetic gives
          }
        }
        pack_d(form, d, out);
      }
      break;
    }
  }
  for (size_t c = 0; c < cases; ++c)
    changed_ += !std::equal(clean.begin() + long(c * words_out), clean.begin() + long((c + 1) * words_out),
                            faulty.begin() + long(c * words_out));
  return faulty;
}

std::string_view name(ProcessFault fault) {
  switch (fault) {
    case ProcessFault::hang: return "hang";
    case ProcessFault::crash: return "crash";
    case ProcessFault::trap: return "trap";
  }
  return "?";
}

std::optional<ProcessFault> process_fault_named(std::string_view text) {
  for (ProcessFault fault : {ProcessFault::hang, ProcessFault::crash, ProcessFault::trap})
    if (name(fault) == text) return fault;
  return std::nullopt;
}

std::string process_fault_kernel(ProcessFault fault, const Target& target) {
  std::ostringstream ptx;
  ptx << "// mmasp watchdog test kernel: " << name(fault) << "\n"
      << ".version " << target.min_ptx.str() << "\n.target " << target.name << "\n.address_size 64\n\n"
      << ".visible .entry " << kKernelName << "(\n  .param .u64 mmasp_input,\n  .param .u64 mmasp_output,\n"
      << "  .param .u32 mmasp_case_count)\n{\n";
  if (fault == ProcessFault::trap) {
    ptx << "  trap;\n  ret;\n}\n";
    return ptx.str();
  }
  // The output is poisoned with 0xDEADBEEF before each launch and this kernel never writes it: a volatile load the
  // compiler cannot hoist keeps the loop going until the process is killed.
  ptx << "  .reg .pred %spin;\n  .reg .b32 %word;\n  .reg .b64 %out;\n"
      << "  ld.param.u64 %out, [mmasp_output];\n  cvta.to.global.u64 %out, %out;\n"
      << "spin:\n  ld.volatile.global.u32 %word, [%out];\n  setp.eq.u32 %spin, %word, 0xDEADBEEF;\n"
      << "  @%spin bra spin;\n  ret;\n}\n";
  return ptx.str();
}

}  // namespace mmasp
