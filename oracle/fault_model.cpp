#include "oracle/fault_model.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/element_type.h"
#include "oracle/layout.h"
#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

using model::Value;

int bit_length(uint64_t x) {
  return model::bit_length(x);
}

bool is_float(ElemType type) {
  return info(type).is_float;
}

// Bits of a type's encoding, and where its lowest bit sits in the code (tf32's padding).
int code_width(ElemType type) {
  return is_float(type) ? float_format(type)->code_bits : info(type).bits;
}
int code_low_bit(ElemType type) {
  return is_float(type) ? float_format(type)->low_pad_bits : 0;
}
int mantissa_bits(ElemType type) {
  return float_format(type)->mantissa_bits;
}

// Whether any rounding of the form goes to nearest: only then does the datapath have a sticky bit, and does its
// increment ever fire.
bool rounds_to_nearest(const Form& form, const ModelParameters& p) {
  const bool f16_d = form.d == ElemType::f16;
  return p.block_rounding == Rounding::nearest_even || (f16_d && p.output_rounding == Rounding::nearest_even) ||
         p.c_placement == CPlacement::fadd_after || p.block_combination == BlockCombination::fadd ||
         p.subnormal_rounding != SubnormalRounding::as_normal;
}

int blocks_of(const Form& form, const ModelParameters& p) {
  return (form.shape.k / 2 + p.block_products - 1) / p.block_products;
}

// The bits of a product significand the alignment can keep: with truncated shifted-out bits, those below
// 2^(m_a + m_b - fraction_bits) fall below the block's last kept bit even for its largest term (an exponent-sum
// alignment puts a product's reference m_a + m_b above its lowest bit), so they are not part of the datapath.
int product_low_bit(const Form& form, const ModelParameters& p) {
  if (p.shifted_out != ShiftedOut::truncate || p.alignment != AlignmentExponent::exponent_sum) return 0;
  return std::max(0, mantissa_bits(form.a) + mantissa_bits(form.b) - p.fraction_bits);
}
int product_bits(const Form& form) {
  return mantissa_bits(form.a) + 1 + mantissa_bits(form.b) + 1;
}

// The alignment distance, saturated to a width that shifts every bit of any term out.
int alignment_width(const Form& form, const ModelParameters& p) {
  return bit_length(uint64_t(p.fraction_bits + std::max(product_bits(form), 24) + 2));
}

// The block sum's two's-complement width: one sign bit above the largest magnitude a block can reach (every product
// and the accumulator term at their largest significands, all at the block's largest exponent).
int block_sum_width(const Form& form, const ModelParameters& p) {
  const int fraction = p.fraction_bits, ma = mantissa_bits(form.a), mb = mantissa_bits(form.b);
  const auto placed = [&](unsigned __int128 significand, int reference_above_lsb) {
    return fraction >= reference_above_lsb ? significand << (fraction - reference_above_lsb)
                                           : significand >> (reference_above_lsb - fraction);
  };
  const unsigned __int128 product = placed((unsigned __int128)((1u << (ma + 1)) - 1) * ((1u << (mb + 1)) - 1), ma + mb);
  const int c_mantissa = blocks_of(form, p) > 1 ? 23 : is_float(form.c) ? mantissa_bits(form.c) : 23;
  const unsigned __int128 other = placed((unsigned __int128)((uint64_t(1) << (c_mantissa + 1)) - 1), c_mantissa);
  const int products = std::min(p.block_products, form.shape.k / 2);
  const unsigned __int128 largest = product * unsigned(products) + other;
  const uint64_t high = uint64_t(largest >> 64);
  return (high ? 64 + bit_length(high) : bit_length(uint64_t(largest))) + 1;
}

// The integer forms' sum register: s32 wraps (32 bits suffice); .satfinite needs the exact sum to clamp it.
struct IntegerSumRange {
  int64_t low = 0, high = 0;
};
IntegerSumRange integer_sum_range(const Form& form) {
  const IntegerRange a = integer_range(form.a), b = integer_range(form.b);
  const int64_t corners[] = {a.min * b.min, a.min * b.max, a.max * b.min, a.max * b.max};
  const int64_t stored = form.shape.k / 2;
  return {int64_t(INT32_MIN) + stored * *std::min_element(std::begin(corners), std::end(corners)),
          int64_t(INT32_MAX) + stored * *std::max_element(std::begin(corners), std::end(corners))};
}
int integer_sum_width(const Form& form) {
  if (!form.satfinite) return 32;
  const IntegerSumRange range = integer_sum_range(form);
  return bit_length(uint64_t(std::max(-(range.low + 1), range.high))) + 1;
}
bool integer_products_signed(const Form& form) {
  return integer_range(form.a).min < 0 || integer_range(form.b).min < 0;
}

int selection_width(const Form& form) {
  const int positions = positions_per_chunk(form.sparsity);
  return positions > 1 ? bit_length(uint64_t(positions - 1)) : 0;
}

// `bits` with the bits of `change` held at 0, at 1, or flipped.
template <class Unsigned>
Unsigned with_effect(Unsigned bits, Unsigned change, FaultEffect effect) {
  switch (effect) {
    case FaultEffect::stuck_at_0:
      return bits & ~change;
    case FaultEffect::stuck_at_1:
      return bits | change;
    case FaultEffect::flip:
      return bits ^ change;
  }
  return bits;
}

// The bits the fault touches, in a register of type Unsigned (above site.low_bit).
template <class Unsigned>
Unsigned change_mask(const DatapathFault& fault) {
  return Unsigned((uint64_t(1) << fault.bits) - 1) << (fault.bit + fault.site.low_bit);
}

// The fault applied to `value`.
uint64_t apply_bits(uint64_t value, const DatapathFault& fault) {
  return with_effect(value, change_mask<uint64_t>(fault), fault.effect);
}

// The unsigned type of a sum (std::make_unsigned knows no __int128 outside GNU modes).
template <class Signed>
struct UnsignedOf;
template <>
struct UnsignedOf<long> {
  using type = unsigned long;
};
template <>
struct UnsignedOf<long long> {
  using type = unsigned long long;
};
template <>
struct UnsignedOf<__int128> {
  using type = unsigned __int128;
};

// A two's-complement register of `width` bits holding `value`, with the fault applied, read back signed.
template <class Signed>
Signed apply_signed(Signed value, int width, const DatapathFault& fault) {
  using Unsigned = typename UnsignedOf<Signed>::type;
  const Unsigned mask = width >= int(sizeof(Signed) * 8) ? ~Unsigned(0) : (Unsigned(1) << width) - 1;
  Unsigned out = with_effect(Unsigned(Unsigned(value) & mask), change_mask<Unsigned>(fault), fault.effect);
  out &= mask;
  if (width < int(sizeof(Signed) * 8) && ((out >> (width - 1)) & 1)) out |= ~mask;  // sign extension
  return Signed(out);
}

model::OperandFormat f32_operand_format() {
  model::OperandFormat f;
  f.exponent_bits = 8;
  f.mantissa_bits = 23;
  f.bias = 127;
  return f;
}

// The arithmetic's fault hooks filled in for one active fault (model::NoFaults documents each). The internal sites
// of the products' blocks apply while a block is summed, not in an addition of C after them (its own IEEE adder).
class FaultyArithmetic : public model::NoFaults {
 public:
  FaultyArithmetic(const DatapathFault* fault, const ModelParameters& p, int alignment_width, int sum_width,
                   uint64_t* activations)
      : fault_(fault), p_(p), alignment_width_(alignment_width), sum_width_(sum_width), activations_(activations) {}
  static constexpr bool faulty() { return true; }
  static constexpr bool on() { return false; }
  void report(ModelEvent, int) const {}
  void stage(ModelStage stage) const { stage_ = stage; }

  void lane(int s) const { lane_ = s; }
  uint64_t product(uint64_t significand) const {
    if (!at(FaultSiteKind::product, lane_) || stage_ == ModelStage::c_addition) return significand;
    return changed(significand, apply_bits(significand, *fault_));
  }
  int alignment_change(bool product, int distance) const {
    if (!at(FaultSiteKind::alignment_distance, product ? lane_ : -1) || stage_ == ModelStage::c_addition) return 0;
    const int saturated = std::min(distance, (1 << alignment_width_) - 1);
    const int faulty = int(apply_bits(uint64_t(saturated), *fault_));
    if (faulty == saturated) return 0;
    count();
    return faulty - distance;
  }
  template <class Sum>
  Sum block_sum(Sum sum) const {
    if (!at(FaultSiteKind::block_sum, -1) || stage_ == ModelStage::c_addition) return sum;
    return changed(sum, apply_signed(sum, fault_->site.width, *fault_));
  }
  // The normaliser shifts the block's sum up by its leading zeros in the sum register and takes the top bit as the
  // leading one: with a faulty shift count the result has a leading one at another place, the bits below it kept.
  void normalise(uint64_t& significand, int& exponent) const {
    if (!at(FaultSiteKind::normalise_shift, -1) || stage_ == ModelStage::c_addition || significand == 0) return;
    const int length = model::bit_length(significand);
    const int zeros = std::max(sum_width_ - 1 - length, 0);  // below the sign bit
    const int saturated = std::min(zeros, (1 << fault_->site.width) - 1);
    const int faulty = int(apply_bits(uint64_t(saturated), *fault_));
    if (faulty == saturated) return;
    count();
    const int leading = length - 1 + zeros - faulty;  // the faulty leading one, above the lowest bit
    if (leading < 0) {
      exponent += leading;
      significand = 1;
    } else if (leading < 64) {
      significand = (uint64_t(1) << leading) | (significand & ((uint64_t(1) << leading) - 1));
    }
  }
  bool sticky(bool bit) const {
    return at(FaultSiteKind::round_sticky, -1) ? changed(bit, apply_bits(bit, *fault_) != 0) : bit;
  }
  bool round_up(bool up) const {
    return at(FaultSiteKind::round_increment, -1) ? changed(up, apply_bits(up, *fault_) != 0) : up;
  }
  Value accumulator(const Value& value) const {
    if (!at(FaultSiteKind::accumulator, -1)) return value;
    const uint32_t code = model::encode_value(model::f32_format(), value, p_.canonical_nan);
    const uint32_t faulty = uint32_t(apply_bits(code, *fault_));
    if (faulty == code) return value;
    count();
    return model::decode_operand(faulty, f32_operand_format(), Subnormals::kept);
  }

 private:
  bool at(FaultSiteKind kind, int lane) const {
    return fault_ && fault_->site.kind == kind && fault_->site.lane == lane;
  }
  template <class T>
  T changed(T before, T after) const {
    if (after != before) count();
    return after;
  }
  void count() const {
    if (activations_) ++*activations_;
  }

  const DatapathFault* fault_;
  const ModelParameters& p_;
  int alignment_width_, sum_width_;
  uint64_t* activations_;
  mutable ModelStage stage_ = ModelStage::first_block;
  mutable int lane_ = -1;  // the stored product whose operands the block is handling
};

// Which elements of a struck case a fault touches.
class StruckElements {
 public:
  StruckElements(const Form& form, const DatapathFault* fault, uint64_t case_index)
      : elements_(size_t(form.shape.m * form.shape.n), false) {
    if (!fault || !fault->strikes(case_index)) return;
    if (fault->permanent()) {
      std::fill(elements_.begin(), elements_.end(), true);
    } else if (fault->pattern == FaultPattern::warp_lanes) {
      for (int lane = 0; lane < 32; ++lane) {
        const MatrixCoord at = coord_of(form, Operand::d, lane, fault->element);
        elements_[size_t(at.row * form.shape.n + at.col)] = true;
      }
    } else {
      elements_[size_t(fault->element) % elements_.size()] = true;
    }
  }
  bool operator[](size_t element) const { return elements_[element]; }

 private:
  std::vector<bool> elements_;
};

// Stored product s's B row: the metadata's position for it, through a faulty index where the fault is there.
int selected_column(const Form& form, const uint32_t* row_nibbles, int s, const DatapathFault* fault) {
  if (!fault || fault->site.kind != FaultSiteKind::selection_index || fault->site.lane != s)
    return logical_column(form, row_nibbles, s);
  const int unit = elements_per_position(form.sparsity);
  const int per_chunk = stored_per_chunk(form.sparsity) * unit;
  const int chunk = s / per_chunk, within = s % per_chunk;
  const ChunkPositions where = positions_of(form.sparsity, row_nibbles[chunk]);
  const int position = int(apply_bits(uint64_t(within / unit == 0 ? where.first : where.second), *fault));
  return chunk * form.chunk_width + (position % positions_per_chunk(form.sparsity)) * unit + within % unit;
}

uint32_t code_with(uint32_t code, const DatapathFault* fault, FaultSiteKind kind, int lane) {
  return fault && fault->site.kind == kind && fault->site.lane == lane ? uint32_t(apply_bits(code, *fault)) : code;
}

bool defined_metadata(const MmaCase& test) {
  for (uint32_t nibble : test.nibbles)
    if (validity(test.form->sparsity, nibble) == MetadataValidity::undefined) return false;
  return true;
}

std::vector<uint32_t> float_datapath(const MmaCase& test, const ModelParameters& p, const DatapathFault* fault,
                                     uint64_t case_index, uint64_t* activations) {
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, stored = form.shape.k / 2, chunks = form.shape.k / form.chunk_width;
  const bool f16_d = form.d == ElemType::f16;
  const model::OperandFormat fa = model_operand_format(form.a, p), fb = model_operand_format(form.b, p),
                             fc = model_operand_format(form.c, p);
  const auto decode = [&](uint32_t code, const model::OperandFormat& f) {
    return model::decode_operand(code, f, p.subnormal_inputs);
  };
  std::vector<Value> b(test.b.size());
  for (size_t x = 0; x < b.size(); ++x) b[x] = decode(test.b[x], fb);
  const StruckElements struck(form, fault, case_index);
  const int alignment = alignment_width(form, p), sum_width = block_sum_width(form, p);
  std::vector<Value> a_row(static_cast<size_t>(stored));
  std::vector<int> columns(static_cast<size_t>(stored)), faulty_columns(static_cast<size_t>(stored));
  std::vector<uint32_t> d(static_cast<size_t>(m * n));
  for (int i = 0; i < m; ++i) {
    const uint32_t* nibbles = test.nibbles.data() + size_t(i * chunks);
    for (int s = 0; s < stored; ++s) {
      columns[size_t(s)] = logical_column(form, nibbles, s);
      faulty_columns[size_t(s)] = selected_column(form, nibbles, s, fault);
      a_row[size_t(s)] = decode(test.a_compressed[size_t(i * stored + s)], fa);
    }
    for (int j = 0; j < n; ++j) {
      const size_t e = size_t(i * n + j);
      const DatapathFault* active = struck[e] ? fault : nullptr;
      const auto operands = [&](int s, Value& a, Value& b_value) {
        if (!active) {
          a = a_row[size_t(s)];
          b_value = b[size_t(columns[size_t(s)] * n + j)];
          return;
        }
        const uint32_t a_code = test.a_compressed[size_t(i * stored + s)];
        const uint32_t faulty_a = code_with(a_code, active, FaultSiteKind::a_code, s);
        a = faulty_a == a_code ? a_row[size_t(s)] : decode(faulty_a, fa);
        const size_t at = size_t(faulty_columns[size_t(s)] * n + j);
        const uint32_t faulty_b = code_with(test.b[at], active, FaultSiteKind::b_code, s);
        b_value = faulty_b == test.b[at] ? b[at] : decode(faulty_b, fb);
        if (activations && (faulty_a != a_code || faulty_b != test.b[at] || at != size_t(columns[size_t(s)] * n + j)))
          ++*activations;
      };
      const uint32_t c_code = code_with(test.c[e], active, FaultSiteKind::c_code, -1);
      const FaultyArithmetic hooks(active, p, alignment, sum_width, activations);
      uint32_t out = active ? model::element(p, stored, operands, decode(c_code, fc), f16_d, hooks)
                            : model::element(p, stored, operands, decode(c_code, fc), f16_d, model::NoEvents{});
      if (active && active->site.kind == FaultSiteKind::d_code) out = uint32_t(apply_bits(out, *active));
      d[e] = out;
    }
  }
  return d;
}

std::vector<uint32_t> integer_datapath(const MmaCase& test, const DatapathFault* fault, uint64_t case_index,
                                       uint64_t* activations) {
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, stored = form.shape.k / 2, chunks = form.shape.k / form.chunk_width;
  const StruckElements struck(form, fault, case_index);
  const int product_width = info(form.a).bits + info(form.b).bits, sum_width = integer_sum_width(form);
  const bool products_signed = integer_products_signed(form);
  std::vector<uint32_t> d(static_cast<size_t>(m * n));
  const auto note = [&](bool change) {
    if (change && activations) ++*activations;
  };
  for (int i = 0; i < m; ++i) {
    const uint32_t* nibbles = test.nibbles.data() + size_t(i * chunks);
    for (int j = 0; j < n; ++j) {
      const size_t e = size_t(i * n + j);
      const DatapathFault* active = struck[e] ? fault : nullptr;
      const auto at = [&](FaultSiteKind kind, int lane) {
        return active && active->site.kind == kind && active->site.lane == lane;
      };
      int64_t sum = decode_integer(form.c, code_with(test.c[e], active, FaultSiteKind::c_code, -1));
      for (int s = 0; s < stored; ++s) {
        const int column = selected_column(form, nibbles, s, active);
        const uint32_t a_code = test.a_compressed[size_t(i * stored + s)], b_code = test.b[size_t(column * n + j)];
        const int64_t product = decode_integer(form.a, code_with(a_code, active, FaultSiteKind::a_code, s)) *
                                decode_integer(form.b, code_with(b_code, active, FaultSiteKind::b_code, s));
        int64_t faulty = product;
        if (at(FaultSiteKind::product, s))
          faulty = products_signed ? apply_signed<int64_t>(product, product_width, *active)
                                   : int64_t(apply_bits(uint64_t(product), *active));
        note(faulty != product);
        sum += faulty;
      }
      if (at(FaultSiteKind::block_sum, -1)) {
        const int64_t faulty = apply_signed<int64_t>(sum, sum_width, *active);
        note(faulty != sum);
        sum = faulty;
      }
      uint32_t out = uint32_t(sum);  // s32 wraps
      if (form.satfinite) {
        bool clamp = sum < INT32_MIN || sum > INT32_MAX;
        if (at(FaultSiteKind::saturation, -1)) {
          const bool faulty = apply_bits(clamp, *active) != 0;
          note(faulty != clamp);
          clamp = faulty;
        }
        if (clamp) out = uint32_t(sum < 0 ? INT32_MIN : INT32_MAX);
      }
      if (at(FaultSiteKind::d_code, -1)) out = uint32_t(apply_bits(out, *active));
      d[e] = out;
    }
  }
  return d;
}

std::optional<std::vector<uint32_t>> evaluate(const MmaCase& test, const ModelParameters* p, const DatapathFault* fault,
                                              uint64_t case_index, uint64_t* activations) {
  check_shape(test);
  const Form& form = *test.form;
  if (!fault_model_applies(form)) throw std::invalid_argument("fault model: block-scale forms are not modelled");
  if (!defined_metadata(test)) return std::nullopt;
  if (form.is_integer()) return integer_datapath(test, fault, case_index, activations);
  if (!p) throw std::invalid_argument("fault model: a float form needs its model parameters");
  return float_datapath(test, *p, fault, case_index, activations);
}

}  // namespace

std::string_view name(FaultStage stage) {
  switch (stage) {
    case FaultStage::operand_decode:
      return "operand decode";
    case FaultStage::sparse_selection:
      return "sparse selection";
    case FaultStage::products:
      return "products";
    case FaultStage::alignment:
      return "alignment";
    case FaultStage::block_sum:
      return "block sum";
    case FaultStage::rounding:
      return "rounding";
    case FaultStage::c_addition:
      return "C addition";
    case FaultStage::output_conversion:
      return "output conversion";
    case FaultStage::saturation:
      return "saturation";
  }
  return "?";
}

FaultStage FaultSite::stage() const {
  switch (kind) {
    case FaultSiteKind::a_code:
    case FaultSiteKind::b_code:
    case FaultSiteKind::c_code:
      return FaultStage::operand_decode;
    case FaultSiteKind::selection_index:
      return FaultStage::sparse_selection;
    case FaultSiteKind::product:
      return FaultStage::products;
    case FaultSiteKind::alignment_distance:
      return FaultStage::alignment;
    case FaultSiteKind::block_sum:
      return FaultStage::block_sum;
    case FaultSiteKind::normalise_shift:
    case FaultSiteKind::round_sticky:
    case FaultSiteKind::round_increment:
      return FaultStage::rounding;
    case FaultSiteKind::accumulator:
      return FaultStage::c_addition;
    case FaultSiteKind::d_code:
      return FaultStage::output_conversion;
    case FaultSiteKind::saturation:
      return FaultStage::saturation;
  }
  return FaultStage::output_conversion;
}

std::string FaultSite::name() const {
  const auto laned = [&](const char* base) { return std::string(base) + "[" + std::to_string(lane) + "]"; };
  switch (kind) {
    case FaultSiteKind::a_code:
      return laned("a");
    case FaultSiteKind::b_code:
      return laned("b");
    case FaultSiteKind::c_code:
      return "c";
    case FaultSiteKind::selection_index:
      return laned("index");
    case FaultSiteKind::product:
      return laned("product");
    case FaultSiteKind::alignment_distance:
      return lane < 0 ? "alignment[c]" : laned("alignment");
    case FaultSiteKind::block_sum:
      return "sum";
    case FaultSiteKind::normalise_shift:
      return "normalise";
    case FaultSiteKind::round_sticky:
      return "sticky";
    case FaultSiteKind::round_increment:
      return "increment";
    case FaultSiteKind::accumulator:
      return "accumulator";
    case FaultSiteKind::d_code:
      return "d";
    case FaultSiteKind::saturation:
      return "saturation";
  }
  return "?";
}

std::string DatapathFault::id() const {
  const std::string bit_text =
      bits > 1 ? "bits" + std::to_string(bit) + "-" + std::to_string(bit + bits - 1) : "bit" + std::to_string(bit);
  std::string out = site.name() + "." + bit_text + ".";
  switch (pattern) {
    case FaultPattern::permanent:
      return out + (effect == FaultEffect::stuck_at_0 ? "sa0" : effect == FaultEffect::stuck_at_1 ? "sa1" : "flip");
    case FaultPattern::burst:
      return out + "burst@" + std::to_string(phase) + ":e" + std::to_string(element);
    case FaultPattern::warp_lanes:
      return out + "lanes@" + std::to_string(phase) + ":r" + std::to_string(element);
    case FaultPattern::periodic:
      return out + "every" + std::to_string(period) + "@" + std::to_string(phase) + ":e" + std::to_string(element);
  }
  return out;
}

bool DatapathFault::strikes(uint64_t case_index) const {
  if (pattern == FaultPattern::permanent) return true;
  if (period == 0) return case_index == phase;
  return case_index >= phase && (case_index - phase) % period == 0;
}

bool fault_model_applies(const Form& form) {
  return !form.block_scale;
}

std::vector<FaultSite> fault_sites(const Form& form, const ModelParameters* p) {
  std::vector<FaultSite> sites;
  if (!fault_model_applies(form)) return sites;
  const bool integer = form.is_integer();
  if (!integer && !p) throw std::invalid_argument("fault model: a float form needs its model parameters");
  const int stored = form.shape.k / 2;
  const auto add = [&](FaultSiteKind kind, int lane, int width, int low_bit = 0) {
    if (width > 0) sites.push_back({kind, lane, width, low_bit});
  };
  for (int s = 0; s < stored; ++s) add(FaultSiteKind::a_code, s, code_width(form.a), code_low_bit(form.a));
  for (int s = 0; s < stored; ++s) add(FaultSiteKind::b_code, s, code_width(form.b), code_low_bit(form.b));
  add(FaultSiteKind::c_code, -1, code_width(form.c), code_low_bit(form.c));
  for (int s = 0; s < stored; ++s) add(FaultSiteKind::selection_index, s, selection_width(form));
  if (integer) {
    for (int s = 0; s < stored; ++s) add(FaultSiteKind::product, s, info(form.a).bits + info(form.b).bits);
    add(FaultSiteKind::block_sum, -1, integer_sum_width(form));
    if (form.satfinite) add(FaultSiteKind::saturation, -1, 1);
  } else {
    const int low = product_low_bit(form, *p);
    for (int s = 0; s < stored; ++s) add(FaultSiteKind::product, s, product_bits(form) - low, low);
    for (int s = 0; s < stored; ++s) add(FaultSiteKind::alignment_distance, s, alignment_width(form, *p));
    add(FaultSiteKind::alignment_distance, -1, alignment_width(form, *p));
    add(FaultSiteKind::block_sum, -1, block_sum_width(form, *p));
    // The shift count: 0 .. the sum register's magnitude bits less one (a sum of 1).
    add(FaultSiteKind::normalise_shift, -1, bit_length(uint64_t(block_sum_width(form, *p) - 2)));
    if (rounds_to_nearest(form, *p)) add(FaultSiteKind::round_sticky, -1, 1);
    add(FaultSiteKind::round_increment, -1, 1);
    if (blocks_of(form, *p) > 1 && p->block_combination == BlockCombination::chained)
      add(FaultSiteKind::accumulator, -1, 32);
  }
  add(FaultSiteKind::d_code, -1, code_width(form.d), code_low_bit(form.d));
  return sites;
}

namespace {

// Both stuck-at faults of every bit of a site, in order.
void add_stuck_at_faults(const FaultSite& site, std::vector<DatapathFault>& faults) {
  for (int bit = 0; bit < site.width; ++bit)
    for (FaultEffect effect : {FaultEffect::stuck_at_0, FaultEffect::stuck_at_1}) {
      DatapathFault fault;
      fault.site = site;
      fault.bit = bit;
      fault.effect = effect;
      faults.push_back(fault);
    }
}

}  // namespace

std::vector<DatapathFault> stuck_at_faults(const Form& form, const ModelParameters* p) {
  std::vector<DatapathFault> faults;
  for (const FaultSite& site : fault_sites(form, p)) add_stuck_at_faults(site, faults);
  return faults;
}

std::vector<DatapathFault> transient_faults(const Form& form, const ModelParameters* p) {
  std::vector<DatapathFault> faults;
  const std::vector<FaultSite> sites = fault_sites(form, p);
  const auto site_of = [&](FaultSiteKind kind, int lane) -> const FaultSite* {
    for (const FaultSite& site : sites)
      if (site.kind == kind && site.lane == lane) return &site;
    return nullptr;
  };
  const auto add = [&](const FaultSite* site, int bit, int bits, FaultPattern pattern, uint64_t period, uint64_t phase,
                       int element) {
    if (!site || bit < 0 || bit + bits > site->width) return;
    DatapathFault fault;
    fault.site = *site;
    fault.bit = bit;
    fault.bits = bits;
    fault.effect = FaultEffect::flip;
    fault.pattern = pattern;
    fault.period = period;
    fault.phase = phase;
    fault.element = element;
    faults.push_back(fault);
  };
  // Bursts of 2 to 4 adjacent bits, low, middle and high in the block sum and in D, in one case.
  for (FaultSiteKind kind : {FaultSiteKind::block_sum, FaultSiteKind::d_code}) {
    const FaultSite* site = site_of(kind, -1);
    if (!site) continue;
    for (int bits = 2; bits <= 4; ++bits)
      for (int bit : {0, site->width / 2, site->width - bits})
        add(site, bit, bits, FaultPattern::burst, 0, 3, kind == FaultSiteKind::d_code ? 5 : 0);
  }
  // One bit of a D register in every lane of the warp: the first and the last fragment index.
  if (const FaultSite* d = site_of(FaultSiteKind::d_code, -1))
    for (int index : {0, elements_per_lane(form, Operand::d) - 1})
      for (int bit : {0, d->width / 2, d->width - 1}) add(d, bit, 1, FaultPattern::warp_lanes, 0, 5, index);
  // Strikes periodic in the case index.
  if (const FaultSite* product = site_of(FaultSiteKind::product, 0))
    add(product, product->width / 2, 1, FaultPattern::periodic, 64, 17, 0);
  if (const FaultSite* sum = site_of(FaultSiteKind::block_sum, -1))
    add(sum, sum->width / 2, 1, FaultPattern::periodic, 32, 9, 0);
  if (const FaultSite* d = site_of(FaultSiteKind::d_code, -1)) add(d, 0, 1, FaultPattern::periodic, 16, 2, 3);
  return faults;
}

std::optional<DatapathFault> parse_datapath_fault(const Form& form, const ModelParameters* p, std::string_view id) {
  if (!fault_model_applies(form)) return std::nullopt;
  // Only the faults of the site the id names are spelled out and compared.
  for (const FaultSite& site : fault_sites(form, p)) {
    const std::string prefix = site.name() + ".";
    if (!id.starts_with(prefix)) continue;
    std::vector<DatapathFault> faults;
    add_stuck_at_faults(site, faults);
    for (const DatapathFault& fault : faults)
      if (fault.id() == id) return fault;
  }
  for (const DatapathFault& fault : transient_faults(form, p))
    if (fault.id() == id) return fault;
  return std::nullopt;
}

std::string undetectable_reason(const Form& form, const ModelParameters* p, const DatapathFault& fault) {
  if (!fault.permanent() || form.is_integer() || !p) return {};
  if (fault.site.kind == FaultSiteKind::round_increment && fault.effect == FaultEffect::stuck_at_0 &&
      !rounds_to_nearest(form, *p))
    return "this form rounds every result toward zero: the increment is 0 on every input, so holding it at 0 changes "
           "nothing";
  return {};
}

std::optional<std::vector<uint32_t>> datapath_result(const MmaCase& test, const ModelParameters* p) {
  return evaluate(test, p, nullptr, 0, nullptr);
}

std::optional<std::vector<uint32_t>> faulty_result(const MmaCase& test, const ModelParameters* p,
                                                   const DatapathFault& fault, uint64_t case_index,
                                                   uint64_t* activations) {
  return evaluate(test, p, &fault, case_index, activations);
}

}  // namespace mmasp
