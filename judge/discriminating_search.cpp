#include "judge/discriminating_search.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "generators/bulk.h"
#include "generators/splitmix.h"
#include "generators/stream_salts.h"
#include "judge/case_judgement.h"
#include "oracle/number_format.h"

namespace mmasp {
namespace {

// A small deterministic stream for the mutations (the search is reproducible from its seed).
class Stream {
 public:
  explicit Stream(uint64_t seed) : state_(seed) {}
  uint64_t next() { return splitmix(state_ += kSplitMixGamma); }
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }

 private:
  uint64_t state_;
};

// What the model does inside, counted: (event, stage, value) -> how often, for one parameter set on one input.
struct EventCounts {
  std::map<int, int64_t> counts;
  static void sink(void* context, ModelEvent event, ModelStage stage, int value) {
    auto* self = static_cast<EventCounts*>(context);
    ++self->counts[(int(event) * 16 + int(stage)) * kModelEventValues + value];
  }
};

Discrimination evaluate(const MmaCase& test, const ModelParameters& a, const ModelParameters& b, bool distance) {
  Discrimination out;
  if (!distance) {
    const auto d_a = model_prediction(test, a), d_b = model_prediction(test, b);
    out.defined = d_a && d_b;
    out.differs = out.defined && *d_a != *d_b;
    return out;
  }
  EventCounts events_a, events_b;
  std::optional<std::vector<uint32_t>> d_a, d_b;
  {
    ModelEventScope scope(&EventCounts::sink, &events_a);
    d_a = model_prediction(test, a);
  }
  {
    ModelEventScope scope(&EventCounts::sink, &events_b);
    d_b = model_prediction(test, b);
  }
  if (!d_a || !d_b) return out;
  out.defined = true;
  for (size_t e = 0; e < d_a->size(); ++e) out.differs |= (*d_a)[e] != (*d_b)[e];
  for (const auto& [key, count] : events_a.counts) {
    const auto it = events_b.counts.find(key);
    out.distance += std::abs(count - (it == events_b.counts.end() ? 0 : it->second));
  }
  for (const auto& [key, count] : events_b.counts)
    if (!events_a.counts.count(key)) out.distance += count;
  return out;
}

// The operands a mutation may change, with their element types.
struct Operand {
  std::vector<uint32_t>* codes;
  ElemType type;
};

uint32_t code_width(ElemType type) {
  if (!info(type).is_float) return uint32_t(info(type).bits);
  const FloatFormat& f = *float_format(type);
  return uint32_t(f.code_bits + f.low_pad_bits);
}

uint32_t random_code(ElemType type, Stream& stream) {
  const uint32_t width = code_width(type);
  return width >= 32 ? uint32_t(stream.next()) : uint32_t(stream.next() & ((1u << width) - 1));
}

// A code of `type` whose exponent is near that of `like` (same sign rule: random), with a random significand.
uint32_t near_exponent(ElemType type, uint32_t like, Stream& stream) {
  if (!info(type).is_float) return random_code(type, stream);
  const FloatFormat& f = *float_format(type);
  const double value = decode_to_double(type, like);
  if (!std::isfinite(value) || value == 0) return random_code(type, stream);
  const int exponent = std::ilogb(value) + int(stream.below(7)) - 3;
  const double significand = 1.0 + double(stream.next() >> 11) * 0x1p-53;
  const double candidate = std::ldexp(significand, exponent) * (stream.below(2) ? -1.0 : 1.0);
  const auto code = encode(type, candidate);
  (void)f;
  return code ? *code : like;
}

// C[i][j] set to the code nearest minus the sum of its row's products: the cancellation where alignment bits show.
void cancel_row(MmaCase& test, Stream& stream) {
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, stored = form.shape.k / 2, chunks = form.shape.k / form.chunk_width;
  const int i = int(stream.below(uint32_t(m))), j = int(stream.below(uint32_t(n)));
  double sum = 0;
  for (int s = 0; s < stored; ++s) {
    const int column = logical_column(form, test.nibbles.data() + size_t(i * chunks), s);
    sum += decode_to_double(form.a, test.a_compressed[size_t(i * stored + s)]) *
           decode_to_double(form.b, test.b[size_t(column * n + j)]);
  }
  if (!std::isfinite(sum)) return;
  if (const auto code = encode(form.c, -sum)) test.c[size_t(i * n + j)] = *code;
}

// An integer type's extremes: its largest and (signed types) its smallest value.
uint32_t integer_extreme(ElemType type, Stream& stream) {
  const IntegerRange range = integer_range(type);
  return encode_integer(type, stream.below(2) ? range.max : range.min);
}

void mutate_once(MmaCase& test, Stream& stream) {
  const Form& form = *test.form;
  Operand operands[] = {{&test.a_compressed, form.a}, {&test.b, form.b}, {&test.c, form.c}};
  const uint32_t kind = stream.below(10);
  if (kind == 9 && !form.is_integer()) return cancel_row(test, stream);
  Operand& operand = operands[stream.below(3)];
  if (operand.codes->empty()) return;
  uint32_t& code = (*operand.codes)[stream.below(uint32_t(operand.codes->size()))];
  const bool is_float = info(operand.type).is_float;
  const uint32_t sign_bit = code_width(operand.type) - 1;
  const uint32_t low_pad = is_float ? uint32_t(float_format(operand.type)->low_pad_bits) : 0;
  const uint32_t other = (*operand.codes)[stream.below(uint32_t(operand.codes->size()))];
  switch (kind) {
    case 0: code = random_code(operand.type, stream); break;
    case 1: code ^= 1u << stream.below(code_width(operand.type)); break;
    case 2: code ^= 1u << sign_bit; break;
    case 3: code = 0; break;
    case 4: code = other ^ (stream.below(2) ? 1u << sign_bit : 0u); break;
    case 5: code = near_exponent(operand.type, other, stream); break;
    case 6:
      code = is_float ? max_finite_code(operand.type) | (stream.below(2) ? 1u << sign_bit : 0u)
                      : integer_extreme(operand.type, stream);
      break;
    case 7: code = (1u << low_pad) | (stream.below(2) ? 1u << sign_bit : 0u); break;   // smallest subnormal; 1 or -big
    default: code = near_exponent(operand.type, code, stream); break;
  }
}

}  // namespace

std::optional<MmaCase> find_discriminating_case(const Form& form, int selector, const ModelParameters& a,
                                                const ModelParameters& b, std::span<const MmaCase> starts,
                                                const DiscriminatingSearch& search) {
  if (!model_applies(form)) return std::nullopt;
  return find_discriminating_case(
      form, selector, [&](const MmaCase& test, bool distance) { return evaluate(test, a, b, distance); }, starts, search);
}

std::optional<MmaCase> find_discriminating_case(const Form& form, int selector,
                                                const std::function<Discrimination(const MmaCase&, bool distance)>& probe,
                                                std::span<const MmaCase> starts, const DiscriminatingSearch& search) {
  const auto differs = [&](const MmaCase& test) { return probe(test, false).differs; };
  for (const MmaCase& start : starts)
    if (differs(start)) return start;
  // Fresh random cases, every profile in turn.
  gen::Options options;
  options.selector = selector;
  const gen::CaseSeeds seeds(search.seed ^ gen::salt::kDiscriminating, form);
  std::vector<MmaCase> pool(starts.begin(), starts.end());
  MmaCase test;
  for (uint64_t i = 0; i < search.random_cases; ++i) {
    options.profile = gen::Profile(i % uint64_t(gen::Profile::count));
    gen::BulkGenerator(seeds.of(i)).next(form, test, options);
    if (differs(test)) return test;
    if (i < 64) pool.push_back(test);
  }
  if (pool.empty()) return std::nullopt;
  // The mutation search, restarted from another pool case when it stalls.
  Stream stream(search.seed ^ gen::salt::kDiscriminating ^ 0x6d757461);
  MmaCase current = pool[stream.below(uint32_t(pool.size()))];
  Discrimination best = probe(current, true);
  uint64_t stalled = 0;
  for (uint64_t step = 0; step < search.mutations; ++step) {
    MmaCase candidate = current;
    const uint32_t changes = 1 + stream.below(3);
    for (uint32_t c = 0; c < changes; ++c) mutate_once(candidate, stream);
    const Discrimination e = probe(candidate, true);
    if (!e.defined) continue;
    if (e.differs) return candidate;
    if (e.distance >= best.distance) {
      stalled = e.distance > best.distance ? 0 : stalled + 1;
      current = std::move(candidate);
      best = e;
    } else {
      ++stalled;
    }
    if (stalled > 400) {
      current = pool[stream.below(uint32_t(pool.size()))];
      best = probe(current, true);
      stalled = 0;
    }
  }
  return std::nullopt;
}

}  // namespace mmasp
