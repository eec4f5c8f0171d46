#include "generators/distributions.h"

#include <bit>
#include <map>
#include <memory>
#include <mutex>

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

// Float forms: small_exact 25%, random 30%, special 20%, near overflow 10%, cancellation 15%; integer forms:
// small_exact 25%, random 35%, extremes 30%, cancellation 10%.
std::vector<std::pair<Profile, int>> profile_weights(bool integer) {
  if (integer)
    return {{Profile::small_exact, 64}, {Profile::random_bits, 90}, {Profile::int_extremes, 77}, {Profile::cancellation, 25}};
  return {{Profile::small_exact, 64}, {Profile::random_bits, 77}, {Profile::special_values, 51},
          {Profile::near_overflow, 26}, {Profile::cancellation, 38}};
}

// --- Code tables per type. ------------------------------------------------------------------------------------------

bool available(const TypePlan& plan, ValueClass value_class) {
  switch (value_class) {
    case ValueClass::zero: return !plan.is_float || plan.type != ElemType::ue8m0;
    case ValueClass::small: return !plan.small.empty();
    case ValueClass::random_finite: return true;
    case ValueClass::subnormal:
      return plan.bits > 16 ? true : !plan.subnormal.empty();
    case ValueClass::near_max: return !plan.near_max.empty();
    case ValueClass::infinity: return plan.has_inf;
    case ValueClass::nan: return plan.bits > 16 ? plan.is_float : !plan.nan.empty();
    case ValueClass::int_extreme: return !plan.int_extremes.empty();
    case ValueClass::count: return false;
  }
  return false;
}

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
  auto plan = std::make_unique<TypePlan>();
  plan->type = type;
  plan->is_float = info(type).is_float;
  plan->bits = info(type).bits;
  if (plan->bits <= 16)
    for (uint32_t code = 0; code < (1u << plan->bits); ++code)
      plan->values.push_back(plan->is_float ? decode_to_double(type, code) : double(decode_integer(type, code)));
  if (!plan->is_float) {
    const IntegerRange range = integer_range(type);
    const bool is_signed = range.min < 0;
    for (int v : {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 7, -7})
      if (is_signed || v > 0) plan->small.push_back(encode_integer(type, v));
    if (type == ElemType::s32) {
      for (int64_t d : {0, 1, 2, 3, 7, 15, 127, 255, 1000, 4095, 16383, 65535}) {
        plan->int_extremes.push_back(uint32_t(int32_t(INT32_MAX - d)));
        plan->int_extremes.push_back(uint32_t(int32_t(INT32_MIN + d)));
      }
    } else {
      const int64_t low = range.min, high = range.max;
      for (int64_t v : {low, low + 1, high, high - 1, int64_t(-1)})
        if (v >= low && v <= high) plan->int_extremes.push_back(encode_integer(type, v));
    }
    return plan;
  }
  const FloatFormat& format = *float_format(type);
  std::vector<double> small = {1, -1, 2, -2, 0.5, -0.5, 3, -3, 4, -4, 1.5, -1.5, 0.25, -0.25};
  if (is_scale) small = {1, 2, 0.5, 4, 0.25, 8, 0.125, 16, 0.0625, 32, 0.03125, 64, 128, 256, 1.5, 0.75};
  for (double v : small) {
    auto code = encode(type, v);
    if (code && decode_to_double(type, *code) == v) plan->small.push_back(*code);
  }
  const uint32_t sign = format.has_sign ? 1u << (format.exponent_bits + format.mantissa_bits + format.low_pad_bits) : 0;
  plan->negative_zero = sign;
  const uint32_t max_code = max_finite_code(type);
  const uint32_t step = 1u << format.low_pad_bits;
  for (uint32_t d = 0; d < 4; ++d) {
    plan->near_max.push_back(max_code - d * step);
    if (sign) plan->near_max.push_back((max_code - d * step) | sign);
  }
  if (format.specials == Specials::ieee) {
    plan->has_inf = true;
    plan->positive_inf = *encode(type, HUGE_VAL);
    plan->negative_inf = *encode(type, -HUGE_VAL);
  }
  if (plan->bits <= 16) {
    for (uint32_t code = 0; code < (1u << format.code_bits); ++code) {
      auto value = decode(type, code);
      if (!value) continue;
      if (value->cls == FloatClass::nan) plan->nan.push_back(code);
      else if (value->cls != FloatClass::infinite) plan->finite.push_back(code);
      if (value->cls == FloatClass::subnormal) plan->subnormal.push_back(code);
    }
  }
  return plan;
}

const TypePlan& type_plan(ElemType type, bool is_scale) {
  static std::mutex mutex;
  static std::map<std::pair<ElemType, bool>, std::unique_ptr<TypePlan>> plans;
  std::lock_guard lock(mutex);
  auto& slot = plans[{type, is_scale}];
  if (!slot) {
    slot = make_type_plan(type, is_scale);
    slot->finish();
  }
  return *slot;
}

std::unique_ptr<FormPlan> make_form_plan(const Form& form) {
  auto plan = std::make_unique<FormPlan>();
  plan->form = &form;
  plan->a = &type_plan(form.a, false);
  plan->b = &type_plan(form.b, false);
  plan->c = &type_plan(form.c, false);
  if (form.block_scale) plan->scale = &type_plan(*form.stype, true);
  const bool integer = form.is_integer();
  for (size_t p = 0; p < size_t(Profile::count); ++p) {
    const Profile profile = Profile(p);
    const W operand = integer ? integer_operand_weights(profile) : float_operand_weights(profile);
    plan->a_classes[p] = class_table(*plan->a, operand);
    plan->b_classes[p] = class_table(*plan->b, operand);
    plan->c_classes[p] = class_table(*plan->c, integer ? integer_accumulator_weights(profile) : float_accumulator_weights(profile));
    if (plan->scale) plan->scale_classes[p] = class_table(*plan->scale, scale_weights(profile));
  }
  size_t slot = 0;
  for (auto [profile, weight] : profile_weights(integer))
    for (int i = 0; i < weight; ++i) plan->profiles[slot++] = profile;
  if (slot != 256) throw std::logic_error("profile weights must sum to 256");
  plan->patterns = increasing_patterns(form.sparsity);
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
                                               "cancellation", "int_extremes"};
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
  static std::mutex mutex;
  static std::map<const Form*, std::unique_ptr<FormPlan>> plans;
  std::lock_guard lock(mutex);
  auto& slot = plans[&form];
  if (!slot) slot = make_form_plan(form);
  return *slot;
}

void TypePlan::finish() {
  using V = ValueClass;
  by_class[size_t(V::zero)] = negative_zero ? std::vector<uint32_t>{0, negative_zero} : std::vector<uint32_t>{0};
  by_class[size_t(V::small)] = small;
  by_class[size_t(V::random_finite)] = finite;
  by_class[size_t(V::subnormal)] = subnormal;
  by_class[size_t(V::near_max)] = near_max;
  if (has_inf) by_class[size_t(V::infinity)] = {positive_inf, negative_inf};
  by_class[size_t(V::nan)] = nan;
  by_class[size_t(V::int_extreme)] = int_extremes;
}

double TypePlan::value_of(uint32_t code) const {
  if (!values.empty()) return values[code & ((1u << bits) - 1)];
  if (!is_float) return double(int32_t(code));
  return decode_to_double(type, code);
}

namespace detail {

uint32_t wide_float_code(ElemType type, ValueClass value_class, uint64_t r) {
  const FloatFormat& format = *float_format(type);
  const uint32_t pad = uint32_t(format.low_pad_bits);
  const uint32_t mantissa_mask = (1u << format.mantissa_bits) - 1;
  const uint32_t exponent_all_ones = ((1u << format.exponent_bits) - 1) << format.mantissa_bits;
  const uint32_t sign = uint32_t(r >> 40) & 1u ? 1u << (format.exponent_bits + format.mantissa_bits) : 0;
  uint32_t code = 0;
  switch (value_class) {
    case ValueClass::subnormal: code = sign | ((uint32_t(r) & mantissa_mask) | 1u); break;
    case ValueClass::nan: code = sign | exponent_all_ones | ((uint32_t(r) & mantissa_mask) | 1u); break;
    default: {
      code = uint32_t(r & ((uint64_t(1) << (format.exponent_bits + format.mantissa_bits + 1)) - 1));
      // Exponent all ones is Inf or NaN: step it down to the largest finite binade.
      if ((code & exponent_all_ones) == exponent_all_ones) code ^= 1u << format.mantissa_bits;
    }
  }
  return code << pad;
}

void cancel_with_c(MmaCase& test) {
  const Form& form = *test.form;
  const FormPlan& plan = plan_for(form);
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k, chunks = k / form.chunk_width;
  for (uint32_t nibble : test.nibbles)
    if (validity(form.sparsity, nibble) == MetadataValidity::undefined) return;
  // Values once, then one dot product per element of D.
  std::vector<double> b(test.b.size());
  for (size_t i = 0; i < b.size(); ++i) b[i] = plan.b->value_of(test.b[i]);
  std::vector<double> a_row(size_t(k / 2));
  std::vector<int> columns(size_t(k / 2));
  for (int i = 0; i < m; ++i) {
    const uint32_t* row_nibbles = test.nibbles.data() + i * chunks;
    for (int s = 0; s < k / 2; ++s) {
      columns[size_t(s)] = logical_column(form, row_nibbles, s);
      a_row[size_t(s)] = plan.a->value_of(test.a_compressed[size_t(i * k / 2 + s)]);
      if (form.block_scale)
        a_row[size_t(s)] *= plan.scale->value_of(test.scale_a[size_t(i * scale_blocks(form) + columns[size_t(s)] / scale_block_width(form))]);
    }
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int s = 0; s < k / 2; ++s) {
        double term = a_row[size_t(s)] * b[size_t(columns[size_t(s)] * n + j)];
        if (form.block_scale)
          term *= plan.scale->value_of(test.scale_b[size_t(columns[size_t(s)] / scale_block_width(form) * n + j)]);
        sum += term;
      }
      if (form.is_integer()) {
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
      auto code = encode(form.c, -sum, Overflow::infinity);
      if (code && std::isfinite(plan.c->value_of(*code))) test.c[size_t(i * n + j)] = *code;
    }
  }
}

}  // namespace detail
}  // namespace mmasp::gen
