#include "generators/distributions.h"
#include "generators/portable_case.h"

#include "generators/draw.h"

#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mmasp::gen {
namespace {

using W = std::vector<std::pair<ValueClass, int>>;  // weights in 256ths

// --- The weights: what each profile draws, per operand role. --------------------------------------------------------
// Special values are rare per element on purpose: every element of D sums 8 to 64 products, so a 1/64 chance of NaN
// per input already makes about half of D non-finite.
W float_operand_weights(Profile profile) {
  using V = ValueClass;
  switch (profile) {
    case Profile::small_exact: return {{V::zero, 77}, {V::small, 179}};
    case Profile::random_bits: return {{V::zero, 26}, {V::random_finite, 230}};
    case Profile::special_values:
      return {{V::zero, 52}, {V::small, 60}, {V::random_finite, 60}, {V::subnormal, 52}, {V::near_max, 24},
              {V::infinity, 4}, {V::nan, 4}};
    case Profile::near_overflow: return {{V::small, 26}, {V::random_finite, 76}, {V::near_max, 154}};
    case Profile::cancellation: return {{V::zero, 26}, {V::small, 77}, {V::random_finite, 153}};
    // About one product in ten non-zero: a block holds few terms of unrelated magnitudes, so its alignment is set
    // by one of them and the second lies anywhere below it, down to where every bit is shifted out. The guided
    // fuzzer (issue #17) reached fp8 gaps of 47-59 bits that the other profiles reach about once in 10^6 cases.
    case Profile::few_terms: return {{V::zero, 176}, {V::random_finite, 80}};
    default: return {{V::random_finite, 256}};
  }
}

W float_accumulator_weights(Profile profile) {
  using V = ValueClass;
  switch (profile) {
    case Profile::small_exact: return {{V::zero, 102}, {V::small, 154}};
    case Profile::special_values:
      return {{V::zero, 52}, {V::small, 60}, {V::random_finite, 60}, {V::subnormal, 52}, {V::near_max, 24},
              {V::infinity, 4}, {V::nan, 4}};
    case Profile::near_overflow: return {{V::random_finite, 102}, {V::near_max, 154}};
    case Profile::few_terms: return {{V::zero, 128}, {V::random_finite, 128}};   // half the blocks hold products only
    default: return {{V::zero, 26}, {V::random_finite, 230}};
  }
}

W integer_operand_weights(Profile profile) {
  using V = ValueClass;
  switch (profile) {
    case Profile::small_exact: return {{V::zero, 77}, {V::small, 179}};
    case Profile::int_extremes: return {{V::zero, 26}, {V::small, 26}, {V::random_finite, 76}, {V::int_extreme, 128}};
    default: return {{V::zero, 26}, {V::random_finite, 230}};
  }
}

W integer_accumulator_weights(Profile profile) {
  using V = ValueClass;
  switch (profile) {
    case Profile::small_exact: return {{V::zero, 102}, {V::small, 154}};
    case Profile::int_extremes: return {{V::int_extreme, 180}, {V::random_finite, 76}};
    default: return {{V::zero, 26}, {V::random_finite, 230}};
  }
}

// Scales: mostly 1 and nearby powers of two (so products stay in range and results stay checkable); extremes, and
// in the special-value profile zero (ue4m3) and NaN codes.
W scale_weights(Profile profile) {
  using V = ValueClass;
  if (profile == Profile::special_values)
    return {{V::zero, 8}, {V::small, 150}, {V::random_finite, 50}, {V::subnormal, 20}, {V::near_max, 20}, {V::nan, 8}};
  if (profile == Profile::small_exact) return {{V::small, 256}};
  return {{V::small, 180}, {V::random_finite, 56}, {V::near_max, 10}, {V::subnormal, 10}};
}

// Float forms: small_exact 25%, random 20%, special 20%, near overflow 10%, cancellation 15%, few terms 10%; integer
// forms: small_exact 25%, random 35%, extremes 30%, cancellation 10%.
std::vector<std::pair<Profile, int>> profile_weights(bool integer) {
  if (integer)
    return {{Profile::small_exact, 64}, {Profile::random_bits, 90}, {Profile::int_extremes, 77}, {Profile::cancellation, 25}};
  return {{Profile::small_exact, 64}, {Profile::random_bits, 51}, {Profile::special_values, 51},
          {Profile::near_overflow, 26}, {Profile::cancellation, 38}, {Profile::few_terms, 26}};
}

// --- Code tables per type. ------------------------------------------------------------------------------------------

bool available(const TypePlan& plan, ValueClass value_class) { return !plan.codes(value_class).empty(); }

// 256 slots in class order (zero first, so that shrinking a draw toward 0 reaches zero); a class the type lacks gives
// its weight to random_finite.
ClassTable class_table(const TypePlan& plan, const W& weights) {
  std::array<int, size_t(ValueClass::count)> per_class{};
  int total = 0;
  for (auto [value_class, weight] : weights) {
    per_class[size_t(available(plan, value_class) ? value_class : ValueClass::random_finite)] += weight;
    total += weight;
  }
  if (total != 256) throw std::logic_error("class weights must sum to 256");
  ClassTable table{};
  size_t slot = 0;
  for (size_t c = 0; c < per_class.size(); ++c)
    for (int i = 0; i < per_class[c]; ++i) table[slot++] = ValueClass(c);
  return table;
}

std::unique_ptr<TypePlan> make_type_plan(ElemType type, bool is_scale) {
  using V = ValueClass;
  auto plan = std::make_unique<TypePlan>();
  TypePlan& p = *plan;
  p.type = type;
  p.is_float = info(type).is_float;
  p.bits = info(type).bits;
  if (p.bits <= 8)
    for (uint32_t code = 0; code < (1u << p.bits); ++code)
      p.values.push_back(p.is_float ? decode_to_double(type, code) : double(decode_integer(type, code)));
  for (double value : p.values) {
    p.float_values.push_back(float(value));
    if (!(double(p.float_values.back()) == value) && !std::isnan(value))
      throw std::logic_error("a narrow value that is not a float");
  }
  auto list = [&](V value_class) -> std::vector<uint32_t>& { return p.by_class[size_t(value_class)]; };
  if (!p.is_float) {
    p.field_bits = p.bits <= 8 ? 0 : 64;
    list(V::zero) = {0};
    if (p.bits <= 8) {
      for (uint32_t code = 0; code < (1u << p.bits); ++code) list(V::random_finite).push_back(code);
    } else {
      list(V::random_finite) = {0};   // s32: all 32 bits random
      p.class_mask[size_t(V::random_finite)] = ~0u;
    }
    const IntegerRange range = integer_range(type);
    const bool is_signed = range.min < 0;
    for (int v : {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 7, -7})
      if (is_signed || v > 0) list(V::small).push_back(encode_integer(type, v));
    if (type == ElemType::s32) {
      for (int64_t d : {0, 1, 2, 3, 7, 15, 127, 255, 1000, 4095, 16383, 65535}) {
        list(V::int_extreme).push_back(uint32_t(int32_t(INT32_MAX - d)));
        list(V::int_extreme).push_back(uint32_t(int32_t(INT32_MIN + d)));
      }
    } else {
      const int64_t low = range.min, high = range.max;
      for (int64_t v : {low, low + 1, high, high - 1, int64_t(-1)})
        if (v >= low && v <= high) list(V::int_extreme).push_back(encode_integer(type, v));
    }
    return plan;
  }
  const FloatFormat& format = *float_format(type);
  const uint32_t sign = format.has_sign ? 1u << (format.exponent_bits + format.mantissa_bits + format.low_pad_bits) : 0;
  if (type != ElemType::ue8m0) list(V::zero) = sign ? std::vector<uint32_t>{0, sign} : std::vector<uint32_t>{0};
  std::vector<double> small = {1, -1, 2, -2, 0.5, -0.5, 3, -3, 4, -4, 1.5, -1.5, 0.25, -0.25};
  if (is_scale) small = {1, 2, 0.5, 4, 0.25, 8, 0.125, 16, 0.0625, 32, 0.03125, 64, 128, 256, 1.5, 0.75};
  for (double v : small) {
    auto code = encode(type, v);
    if (code && decode_to_double(type, *code) == v) list(V::small).push_back(*code);
  }
  const uint32_t max_code = max_finite_code(type);
  const uint32_t step = 1u << format.low_pad_bits;
  for (uint32_t d = 0; d < 4; ++d) {
    list(V::near_max).push_back(max_code - d * step);
    if (sign) list(V::near_max).push_back((max_code - d * step) | sign);
  }
  if (format.specials == Specials::ieee) list(V::infinity) = {*encode(type, HUGE_VAL), *encode(type, -HUGE_VAL)};
  if (p.bits <= 16) {
    for (uint32_t code = 0; code < (1u << format.code_bits); ++code) {
      auto value = decode(type, code);
      if (!value) continue;
      if (value->cls == FloatClass::nan) list(V::nan).push_back(code);
      else if (value->cls != FloatClass::infinite && p.bits <= 8) list(V::random_finite).push_back(code);
      if (value->cls == FloatClass::subnormal) list(V::subnormal).push_back(code);
    }
  }
  if (p.bits <= 8) return plan;   // each sampler picks its field width
  // Wider floats: random finite codes as (sign, exponent) prefixes plus random mantissa bits (TypePlan::by_class).
  if (format.specials != Specials::ieee || !format.has_sign)
    throw std::logic_error("wide float types are drawn as IEEE formats with a sign");
  p.mantissa_bits = format.mantissa_bits;
  p.pad_bits = format.low_pad_bits;
  p.field_bits = p.mantissa_bits <= 10 ? 32 : 64;
  for (uint32_t s = 0; s < 2; ++s)
    for (uint32_t e = 0; e + 1 < (1u << format.exponent_bits); ++e)
      list(V::random_finite).push_back((s ? sign : 0) | e << (format.mantissa_bits + format.low_pad_bits));
  const uint32_t mantissa = (1u << format.mantissa_bits) - 1;
  p.class_mask[size_t(V::random_finite)] = mantissa;
  if (p.bits > 16) {
    // tf32/f32 subnormals and NaNs: a sign (and the all-ones exponent) and a random mantissa that is never 0.
    const uint32_t exponent_all_ones = ((1u << format.exponent_bits) - 1) << (format.mantissa_bits + format.low_pad_bits);
    list(V::subnormal) = {0, sign};
    list(V::nan) = {exponent_all_ones, exponent_all_ones | sign};
    for (V value_class : {V::subnormal, V::nan}) {
      p.class_mask[size_t(value_class)] = mantissa;
      p.class_force[size_t(value_class)] = 1u << format.low_pad_bits;
    }
  }
  return plan;
}

const TypePlan& type_plan(ElemType type, bool is_scale) {
  static std::mutex mutex;
  static std::map<std::pair<ElemType, bool>, std::unique_ptr<TypePlan>> plans;
  std::lock_guard lock(mutex);
  auto& slot = plans[{type, is_scale}];
  if (!slot) slot = make_type_plan(type, is_scale);
  return *slot;
}

enum class Role { operand, accumulator, scale };

W weights_for(const TypePlan& type, Role role, Profile profile) {
  const bool integer = !type.is_float;
  switch (role) {
    case Role::operand: return integer ? integer_operand_weights(profile) : float_operand_weights(profile);
    case Role::accumulator: return integer ? integer_accumulator_weights(profile) : float_accumulator_weights(profile);
    case Role::scale: return scale_weights(profile);
  }
  return {};
}

std::unique_ptr<ElementSampler> make_sampler(const TypePlan& type, Role role, Profile profile) {
  auto sampler = std::make_unique<ElementSampler>();
  sampler->type = &type;
  sampler->classes = class_table(type, weights_for(type, role, profile));
  if (type.bits > 8) {
    for (size_t slot = 0; slot < 256; ++slot) {
      const size_t c = size_t(sampler->classes[slot]);
      if (type.by_class[c].empty()) throw std::logic_error("a class to draw has no codes");
      sampler->slot_class[slot] = uint32_t(c);
    }
    for (size_t c = 0; c < size_t(ValueClass::count); ++c) {
      sampler->class_offset[c] = uint32_t(sampler->all_codes.size());
      sampler->class_size[c] = uint32_t(type.by_class[c].size());
      sampler->class_mask[c] = type.class_mask[c] << type.pad_bits;
      sampler->class_force[c] = type.class_force[c];
      sampler->all_codes.insert(sampler->all_codes.end(), type.by_class[c].begin(), type.by_class[c].end());
      // The vector path multiplies list index and size in 32 bits.
      if (type.field_bits == 32 && (uint64_t(type.by_class[c].size()) << (24 - type.mantissa_bits)) >> 32)
        throw std::logic_error("a class list too long for 32-bit index arithmetic");
    }
    return sampler;
  }
  // Bytes where every class drawn has a slot for each of its codes, else 12 bits. Each 256th of class weight becomes
  // 2^slot_bits / 256 slots; a class's codes are spread evenly over its slots, in list order, so the first code of
  // each class (+0, 1) takes the class's lowest slots.
  std::array<size_t, size_t(ValueClass::count)> weight{};
  for (ValueClass value_class : sampler->classes) ++weight[size_t(value_class)];
  sampler->slot_bits = 8;
  for (size_t c = 0; c < weight.size(); ++c)
    if (weight[c] && weight[c] < type.by_class[c].size()) sampler->slot_bits = 12;
  const size_t slots_per_class_slot = (size_t(1) << sampler->slot_bits) / 256;
  sampler->slots.reserve((size_t(1) << sampler->slot_bits) + 1);
  size_t first = 0;
  while (first < 256) {
    const ValueClass value_class = sampler->classes[first];
    size_t last = first;
    while (last < 256 && sampler->classes[last] == value_class) ++last;
    const std::vector<uint32_t>& codes = type.by_class[size_t(value_class)];
    if (codes.empty()) throw std::logic_error("a narrow type's class has no codes to draw");
    const size_t slots = (last - first) * slots_per_class_slot;
    for (size_t i = 0; i < slots; ++i)
      sampler->slots.push_back(uint16_t(codes[i * codes.size() / slots] | uint32_t(value_class) << 8));
    first = last;
  }
  sampler->slots.push_back(0);
  return sampler;
}

const ElementSampler& sampler_for(const TypePlan& type, Role role, Profile profile) {
  static std::mutex mutex;
  static std::map<std::tuple<const TypePlan*, Role, Profile>, std::unique_ptr<ElementSampler>> samplers;
  std::lock_guard lock(mutex);
  auto& slot = samplers[{&type, role, profile}];
  if (!slot) slot = make_sampler(type, role, profile);
  return *slot;
}

// The 256 chunk slots of distributions_impl.h: increasing patterns, then reversed ones (a quarter of the defined
// slots where reversing is allowed), then undefined nibbles (a sixteenth, only when undefined behaviour is asked for).
std::vector<ChunkSlot> chunk_slots(const Form& form, const std::vector<ChunkPositions>& patterns, bool undefined_behaviour) {
  constexpr size_t kSlots = size_t(1) << kChunkSlotBits;
  const bool one_of_two = form.sparsity == Sparsity::one_of_two;
  // Reversed index pairs are legal for .sp (9.7.14.6.1) and undefined for ::ordered_metadata.
  const bool reversible = !one_of_two && (form.variant == SpVariant::sp || undefined_behaviour);
  std::vector<uint8_t> undefined_nibbles;
  for (uint32_t nibble = 0; nibble < 16; ++nibble)
    if (validity(form.sparsity, nibble) == MetadataValidity::undefined) undefined_nibbles.push_back(uint8_t(nibble));
  const size_t undefined_slots = undefined_behaviour ? kSlots / 16 : 0;
  const size_t reversed_slots = reversible ? (kSlots - undefined_slots) / 4 : 0;
  const size_t increasing_slots = kSlots - undefined_slots - reversed_slots;
  std::vector<ChunkSlot> slots;
  slots.reserve(kSlots);
  for (size_t i = 0; i < increasing_slots; ++i) {
    const size_t pattern = i * patterns.size() / increasing_slots;
    slots.push_back({uint8_t(nibble_of(form.sparsity, patterns[pattern])), uint8_t(pattern), 0});
  }
  for (size_t i = 0; i < reversed_slots; ++i) {
    const size_t pattern = i * patterns.size() / reversed_slots;
    const ChunkPositions reversed{patterns[pattern].second, patterns[pattern].first};
    slots.push_back({uint8_t(nibble_of(form.sparsity, reversed)), uint8_t(pattern), 1});
  }
  for (size_t i = 0; i < undefined_slots; ++i)
    slots.push_back({undefined_nibbles[i * undefined_nibbles.size() / undefined_slots], 0, 2});
  return slots;
}

std::unique_ptr<FormPlan> make_form_plan(const Form& form) {
  auto plan = std::make_unique<FormPlan>();
  plan->form = &form;
  plan->a = &type_plan(form.a, false);
  plan->b = &type_plan(form.b, false);
  plan->c = &type_plan(form.c, false);
  if (form.block_scale) plan->scale = &type_plan(*form.stype, true);
  for (size_t p = 0; p < size_t(Profile::count); ++p) {
    const Profile profile = Profile(p);
    plan->a_samplers[p] = &sampler_for(*plan->a, Role::operand, profile);
    plan->b_samplers[p] = &sampler_for(*plan->b, Role::operand, profile);
    plan->c_samplers[p] = &sampler_for(*plan->c, Role::accumulator, profile);
    if (plan->scale) plan->scale_samplers[p] = &sampler_for(*plan->scale, Role::scale, profile);
  }
  size_t slot = 0;
  for (auto [profile, weight] : profile_weights(form.is_integer()))
    for (int i = 0; i < weight; ++i) plan->profiles[slot++] = profile;
  if (slot != 256) throw std::logic_error("profile weights must sum to 256");
  plan->patterns = increasing_patterns(form.sparsity);
  for (bool undefined_behaviour : {false, true}) {
    plan->chunk_slots[undefined_behaviour] = chunk_slots(form, plan->patterns, undefined_behaviour);
    for (const ChunkSlot& slot : plan->chunk_slots[undefined_behaviour])
      plan->chunk_nibbles[undefined_behaviour].push_back(slot.nibble);
    plan->chunk_nibbles[undefined_behaviour].push_back(0);
  }
  plan->stored_per_chunk = form.chunk_width / 2;
  for (uint32_t nibble = 0; nibble < 16; ++nibble) {
    if (validity(form.sparsity, nibble) == MetadataValidity::undefined) {
      plan->undefined_nibbles |= uint16_t(1u << nibble);
      continue;
    }
    for (int stored = 0; stored < plan->stored_per_chunk; ++stored)
      plan->chunk_columns[nibble][size_t(stored)] = uint8_t(logical_column(form, &nibble, stored));
  }
  return plan;
}

}  // namespace

std::string_view name(ValueClass value_class) {
  static constexpr std::string_view names[] = {"zero", "small", "random_finite", "subnormal", "near_max",
                                               "infinity", "nan", "int_extreme"};
  return value_class < ValueClass::count ? names[size_t(value_class)] : "?";
}

std::string_view name(Profile profile) {
  static constexpr std::string_view names[] = {"small_exact", "random_bits", "special_values", "near_overflow",
                                               "cancellation", "int_extremes", "few_terms"};
  return profile < Profile::count ? names[size_t(profile)] : "?";
}

void Coverage::merge(const Coverage& other) {
  for (size_t i = 0; i < value_classes.size(); ++i) value_classes[i] += other.value_classes[i];
  for (size_t i = 0; i < profiles.size(); ++i) profiles[i] += other.profiles[i];
  for (size_t i = 0; i < patterns.size(); ++i) patterns[i] += other.patterns[i];
  for (size_t i = 0; i < selectors.size(); ++i) selectors[i] += other.selectors[i];
  unordered_chunks += other.unordered_chunks;
  undefined_chunks += other.undefined_chunks;
  cases += other.cases;
}

const FormPlan& plan_for(const Form& form) {
  // Every case asks for its form's plan: the last one is kept per thread, so the lock is taken once per form.
  thread_local const FormPlan* last = nullptr;
  if (last && last->form == &form) return *last;
  static std::mutex mutex;
  static std::map<const Form*, std::unique_ptr<FormPlan>> plans;
  std::lock_guard lock(mutex);
  auto& slot = plans[&form];
  if (!slot) slot = make_form_plan(form);
  last = slot.get();
  return *slot;
}

double TypePlan::value_of(uint32_t code) const {
  // The cancellation profile decodes every operand of a case: lookups and bit operations rather than decode(), and
  // no 64K-entry table (f16 and bf16 codes are random, so such a table would miss the cache on every lookup).
  // Generators.ValueOfEveryCodeIsTheOracles checks each against decode_to_double.
  if (!values.empty()) return values[code & ((1u << bits) - 1)];
  // tf32 lives in the top 19 bits of an f32 register, and bf16 is the top half of an f32: exactly those floats.
  if (type == ElemType::tf32 || type == ElemType::f32) return double(std::bit_cast<float>(code));
  if (type == ElemType::bf16) return double(std::bit_cast<float>((code & 0xFFFFu) << 16));
  if (type == ElemType::f16) return double(detail::f16_to_float(code));
  if (!is_float) return double(int32_t(code));
  return decode_to_double(type, code);
}

namespace detail {

namespace {

// Rows first .. first + 3 of D's sums, 8 columns each (n is 8 for every shape): four rows at once, so that four
// chains of additions overlap, and all 8 columns in one vector where the CPU has AVX-512. Every element still sums
// its terms in stored order, with separate multiplies and adds (-ffp-contract=off): every clone gives the same sums.
#if defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void four_row_sums(double* out, const double* a_rows, const int* columns, int stored, const double* b) {
  double sums[4][8] = {};
  for (int s = 0; s < stored; ++s) {
    for (int r = 0; r < 4; ++r) {
      const double a = a_rows[r * stored + s];
      const double* b_row = b + size_t(columns[r * stored + s]) * 8;
      for (int j = 0; j < 8; ++j) sums[r][j] += a * b_row[j];
    }
  }
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 8; ++j) out[r * 8 + j] = sums[r][j];
}

#if defined(__x86_64__)
// The hand-written AVX-512 paths of this file (draw.cpp has those of the draw itself).
const bool kAvx512 = [] {
  __builtin_cpu_init();
  return !portable_only() && bool(__builtin_cpu_supports("avx512f"));
}();
#endif

// out[i] = table[codes[i] & mask], 8 at a time by a gather where the CPU has AVX-512 (clang does not vectorise the
// loop by itself).
#if defined(__x86_64__)
__attribute__((target("avx512f"))) void table_values_avx512(const double* table, const float* float_table,
                                                            uint32_t mask, const uint32_t* codes, size_t count,
                                                            double* out) {
  size_t i = 0;
  if (mask == 15) {   // 4-bit codes: the table is two registers
    const __m512d low = _mm512_loadu_pd(table), high = _mm512_loadu_pd(table + 8);
    for (; i + 8 <= count; i += 8) {
      const __m512i indices = _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes + i)));
      _mm512_storeu_pd(out + i, _mm512_permutex2var_pd(low, indices, high));   // index bits above 3 are ignored
    }
  }
  // Wider codes: 16 floats a gather (every narrow value is a float), widened to doubles.
  const __m512i masks = _mm512_set1_epi32(int(mask));
  for (; i + 16 <= count; i += 16) {
    const __m512i indices = _mm512_and_si512(_mm512_loadu_si512(codes + i), masks);
    const __m512 values = _mm512_i32gather_ps(indices, float_table, 4);
    _mm512_storeu_pd(out + i, _mm512_cvtps_pd(_mm512_castps512_ps256(values)));
    _mm512_storeu_pd(out + i + 8, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(values), 1))));
  }
  for (; i < count; ++i) out[i] = table[codes[i] & mask];
}
#endif

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void wide_codes_avx512(const ElementSampler& sampler, uint32_t* fields, size_t count) {
  const TypePlan& type = *sampler.type;
  const int index_bits = 24 - type.mantissa_bits;
  const __m512i offsets = _mm512_loadu_si512(sampler.class_offset.data()), sizes = _mm512_loadu_si512(sampler.class_size.data()),
                masks = _mm512_loadu_si512(sampler.class_mask.data()), forces = _mm512_loadu_si512(sampler.class_force.data());
  const __m512i index_mask = _mm512_set1_epi32(int((1u << index_bits) - 1));
  const __m128i mantissa_shift = _mm_cvtsi32_si128(type.mantissa_bits), index_shift = _mm_cvtsi32_si128(index_bits),
                pad_shift = _mm_cvtsi32_si128(type.pad_bits);
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const __m512i r = _mm512_loadu_si512(fields + i);
    const __m512i value_class = _mm512_i32gather_epi32(_mm512_srli_epi32(r, 24), sampler.slot_class.data(), 4);
    const __m512i index = _mm512_and_si512(_mm512_srl_epi32(r, mantissa_shift), index_mask);
    const __m512i entry = _mm512_add_epi32(_mm512_permutexvar_epi32(value_class, offsets),
                                           _mm512_srl_epi32(_mm512_mullo_epi32(index, _mm512_permutexvar_epi32(value_class, sizes)), index_shift));
    const __m512i code = _mm512_i32gather_epi32(entry, sampler.all_codes.data(), 4);
    const __m512i extra = _mm512_and_si512(_mm512_sll_epi32(r, pad_shift), _mm512_permutexvar_epi32(value_class, masks));
    _mm512_storeu_si512(fields + i, _mm512_or_si512(_mm512_or_si512(code, extra), _mm512_permutexvar_epi32(value_class, forces)));
  }
  for (; i < count; ++i) {
    const uint32_t r = fields[i];
    fields[i] = code_of_field(sampler, r);
  }
}

__attribute__((target("avx512f"))) void wide_codes_64_avx512(const ElementSampler& sampler, const uint64_t* outputs,
                                                             uint32_t* codes, size_t count) {
  // Per output r: class slot r >> 56, list index (r >> 24) & (2^32 - 1) scaled by the list size, masked bits r.
  const __m512i offsets = _mm512_loadu_si512(sampler.class_offset.data()), sizes = _mm512_loadu_si512(sampler.class_size.data()),
                masks = _mm512_loadu_si512(sampler.class_mask.data()), forces = _mm512_loadu_si512(sampler.class_force.data());
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m512i r = _mm512_loadu_si512(outputs + i);
    const __m256i value_class = _mm512_i64gather_epi32(_mm512_srli_epi64(r, 56), sampler.slot_class.data(), 4);
    const __m512i class_lanes = _mm512_castsi256_si512(value_class);
    const __m512i size = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(_mm512_permutexvar_epi32(class_lanes, sizes)));
    const __m512i scaled = _mm512_srli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(r, 24), size), 32);
    const __m256i entry = _mm256_add_epi32(_mm512_cvtepi64_epi32(scaled),
                                           _mm512_castsi512_si256(_mm512_permutexvar_epi32(class_lanes, offsets)));
    const __m256i code = _mm256_i32gather_epi32(reinterpret_cast<const int*>(sampler.all_codes.data()), entry, 4);
    const __m256i extra = _mm256_and_si256(_mm512_cvtepi64_epi32(r),
                                           _mm512_castsi512_si256(_mm512_permutexvar_epi32(class_lanes, masks)));
    const __m256i force = _mm512_castsi512_si256(_mm512_permutexvar_epi32(class_lanes, forces));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(codes + i), _mm256_or_si256(_mm256_or_si256(code, extra), force));
  }
  for (; i < count; ++i) {
    const uint64_t r = outputs[i];
    codes[i] = code_of_output(sampler, r);
  }
}
#endif

void table_values(const double* table, const float* float_table, uint32_t mask, const uint32_t* codes, size_t count,
                  double* out) {
#if defined(__x86_64__)
  if (kAvx512) return table_values_avx512(table, float_table, mask, codes, count, out);
#endif
  for (size_t i = 0; i < count; ++i) out[i] = table[codes[i] & mask];
}

// The logical column of every stored element of one row of A, chunk by chunk.
template <int stored_per_chunk>
[[gnu::always_inline]] inline void chunk_columns(int* columns, const uint32_t* nibbles, int chunks, const FormPlan& plan) {
  const int width = plan.form->chunk_width;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    const uint8_t* within = plan.chunk_columns[nibbles[chunk]].data();
    for (int t = 0; t < stored_per_chunk; ++t) columns[chunk * stored_per_chunk + t] = chunk * width + within[t];
  }
}

void row_sums(double* out, const double* a_row, const int* columns, int stored, const double* b, int n) {
  for (int j = 0; j < n; ++j) {
    out[j] = 0;
    for (int s = 0; s < stored; ++s) out[j] += a_row[s] * b[size_t(columns[s]) * size_t(n) + size_t(j)];
  }
}

}  // namespace


void wide_codes_from_outputs(const ElementSampler& sampler, const uint64_t* outputs, uint32_t* codes, size_t count) {
#if defined(__x86_64__)
  if (kAvx512) return wide_codes_64_avx512(sampler, outputs, codes, count);
#endif
  throw std::logic_error("wide_codes_from_outputs without AVX-512");
}

bool wide_codes_available() {
#if defined(__x86_64__)
  return kAvx512;
#else
  return false;
#endif
}

void wide_codes_from_fields(const ElementSampler& sampler, uint32_t* fields, size_t count) {
#if defined(__x86_64__)
  if (kAvx512) return wide_codes_avx512(sampler, fields, count);
#endif
  throw std::logic_error("wide_codes_from_fields without AVX-512");
}

float f16_to_float(uint32_t code) {
  // Every f16 is a float. Normals, Inf and NaN move their fields into place and rebias the exponent (Inf/NaN get
  // the all-ones exponent); subnormals (and zero) are m * 2^-24: m placed as a float of exponent 2^-14's, minus
  // 2^-14, which is exact.
  const uint32_t sign = (code & 0x8000u) << 16, magnitude = code & 0x7FFFu, exponent = magnitude >> 10;
  uint32_t bits = (magnitude << 13) + (uint32_t(127 - 15) << 23);
  if (exponent == 0x1F) bits += uint32_t(128 - 16) << 23;
  if (exponent == 0) {
    const float subnormal = std::bit_cast<float>(bits + (1u << 23)) - std::bit_cast<float>(uint32_t(127 - 14) << 23);
    bits = std::bit_cast<uint32_t>(subnormal);
  }
  return std::bit_cast<float>(bits | sign);
}

std::optional<uint32_t> f16_nearest_finite(double value) {
  const uint32_t code = portable::f16_nearest_finite(value);   // one definition, also drawn on GPUs
  if (code == 0xFFFFFFFFu) return std::nullopt;
  return code;
}

// The values of `codes`, one branch per array rather than per element.
[[gnu::always_inline]] inline void values_of(const TypePlan& type, const std::vector<uint32_t>& codes,
                                             std::vector<double>& out) {
  out.resize(codes.size());
  if (!type.values.empty()) {
    table_values(type.values.data(), type.float_values.data(), (1u << type.bits) - 1, codes.data(), codes.size(),
                 out.data());
    return;
  }
  if (type.type == ElemType::f16) {
    for (size_t i = 0; i < codes.size(); ++i) out[i] = double(f16_to_float(codes[i]));
    return;
  }
  for (size_t i = 0; i < codes.size(); ++i) out[i] = type.value_of(codes[i]);
}

namespace {

// Cloned per instruction set like four_row_sums, so that its loops (lookups, scaling) vectorise where they can; the
// operations and their order are the same in every clone. A function of its own, with no declaration before it:
// clang 14 put the clones' attribute on cancel_with_c, declared in distributions_impl.h without it, by compiling that
// one function for AVX-512 alone (no clones, no dispatch), which stopped every cancellation case with SIGILL on a CPU
// without AVX-512 (an AMD EPYC with AVX2, 2026-11-28).
#if defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void cancel_with_c_cloned(MmaCase& test) {
  const Form& form = *test.form;
  const FormPlan& plan = plan_for(form);
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k, stored = k / 2;
  uint32_t undefined = 0;   // no early exit: the loop vectorises
  for (uint32_t nibble : test.nibbles) undefined |= uint32_t(plan.undefined_nibbles) >> (nibble & 15);
  if (undefined & 1) return;
  // Values once (B times its scale: every such product is exact in a double), then each row of A against B, all
  // columns at a time; each element of D still sums its terms in stored order.
  thread_local std::vector<double> a, b, scale_a, scale_b, sums, a_rows;
  thread_local std::vector<int> columns;
  values_of(*plan.a, test.a_compressed, a);
  values_of(*plan.b, test.b, b);
  const int blocks = form.block_scale ? scale_blocks(form) : 0;
  // Scale blocks are 16, 32 or 64 elements wide: a shift, not a division.
  const int block_shift = form.block_scale ? std::countr_zero(unsigned(scale_block_width(form))) : 0;
  if (form.block_scale) {
    values_of(*plan.scale, test.scale_a, scale_a);
    values_of(*plan.scale, test.scale_b, scale_b);
    if (n != 8) throw std::logic_error("block-scaled shapes have n = 8");
    double* __restrict b_values = b.data();
    for (int block = 0; block < blocks; ++block) {
      // A row of 8 as one vector (as plain loops, clang vectorised across rows, with gathers and scatters).
      using Row = double __attribute__((vector_size(64)));
      Row scales;
      std::memcpy(&scales, scale_b.data() + size_t(block * 8), sizeof scales);
      for (int row = block << block_shift; row < (block + 1) << block_shift; ++row) {
        Row values;
        std::memcpy(&values, b_values + size_t(row) * 8, sizeof values);
        values *= scales;
        std::memcpy(b_values + size_t(row) * 8, &values, sizeof values);
      }
    }
  }
  // Per row, the logical column of every stored element and its value times its scale; then the sums.
  a_rows.resize(size_t(m * stored));
  columns.resize(size_t(m * stored));
  sums.resize(size_t(m * n));
  const int chunks = k / form.chunk_width;
  for (int i = 0; i < m; ++i) {
    int* row_columns = columns.data() + size_t(i * stored);
    const uint32_t* row_nibbles = test.nibbles.data() + i * chunks;
    switch (plan.stored_per_chunk) {
      case 1: chunk_columns<1>(row_columns, row_nibbles, chunks, plan); break;
      case 2: chunk_columns<2>(row_columns, row_nibbles, chunks, plan); break;
      default: chunk_columns<4>(row_columns, row_nibbles, chunks, plan); break;
    }
    const double* __restrict a_values = a.data() + size_t(i * stored);
    double* __restrict a_row = a_rows.data() + size_t(i * stored);
    if (form.block_scale) {
      // A scale block is a whole number of chunks, half of whose columns are stored: the stored elements of block
      // b are the b-th run of (block width / 2).
      const double* row_scales = scale_a.data() + size_t(i * blocks);
      const int stored_per_block = (1 << block_shift) / 2;
      for (int block = 0; block < blocks; ++block)
        for (int s = block * stored_per_block; s < (block + 1) * stored_per_block; ++s)
          a_row[s] = a_values[s] * row_scales[block];
    } else {
      std::copy(a_values, a_values + stored, a_row);
    }
  }
  int first = 0;
  if (n == 8)
    for (; first + 4 <= m; first += 4)
      four_row_sums(sums.data() + size_t(first * n), a_rows.data() + size_t(first * stored),
                    columns.data() + size_t(first * stored), stored, b.data());
  for (int i = first; i < m; ++i)
    row_sums(sums.data() + size_t(i * n), a_rows.data() + size_t(i * stored), columns.data() + size_t(i * stored),
             stored, b.data(), n);
  const bool integer = form.is_integer();
  const double c_max = integer ? 0.0 : plan.c->value_of(max_finite_code(form.c));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const double sum = sums[size_t(i * n + j)];
      if (integer) {
        test.c[size_t(i * n + j)] = uint32_t(-int64_t(sum));  // exact: |sum| < 2^53
        continue;
      }
      if (!std::isfinite(sum)) continue;
      if (form.c == ElemType::f32) {
        // A double-to-float conversion rounds to nearest even, like encode(), and is far faster.
        const float rounded = float(-sum);
        if (std::isfinite(rounded)) test.c[size_t(i * n + j)] = std::bit_cast<uint32_t>(rounded);
        continue;
      }
      if (form.c == ElemType::f16) {
        if (auto code = f16_nearest_finite(-sum)) test.c[size_t(i * n + j)] = *code;
        continue;
      }
      // Far beyond C's range the rounding is Inf, which leaves C as drawn: no need to ask encode().
      if (std::fabs(sum) >= 2 * c_max) continue;
      auto code = encode(form.c, -sum, Overflow::infinity);
      if (code && std::isfinite(plan.c->value_of(*code))) test.c[size_t(i * n + j)] = *code;
    }
  }
}

}  // namespace

void cancel_with_c(MmaCase& test) { cancel_with_c_cloned(test); }

}  // namespace detail
}  // namespace mmasp::gen
