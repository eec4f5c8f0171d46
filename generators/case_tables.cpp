#include "generators/case_tables.h"

#include <map>
#include <stdexcept>

#include "generators/distributions.h"

namespace mmasp::gen {
namespace {

using portable::Cursor;

uint32_t append(std::vector<uint32_t>& arena, const std::vector<uint32_t>& words) {
  const uint32_t at = uint32_t(arena.size());
  arena.insert(arena.end(), words.begin(), words.end());
  return at;
}

// The draw width of a sampler: its slot field, a 32-bit field, or a whole output.
uint32_t width_of(const ElementSampler& sampler) {
  if (sampler.narrow()) return uint32_t(sampler.slot_bits);
  return sampler.type->field_bits == 32 ? 32 : 64;
}

// The arena's blocks already appended, by content: samplers of one type hold the same class lists (all_codes is every
// class's codes of the type, in class order), and often the same slot classes, so that each is put in the arena once.
// With a copy per sampler, a form's arena grows several times over (m16n8k32 f16->f16's 14 wide samplers), and its
// draws read those lists at random: one copy of each list keeps them in cache.
using Appended = std::map<std::vector<uint32_t>, uint32_t>;
uint32_t append_once(std::vector<uint32_t>& arena, Appended& appended, const std::vector<uint32_t>& words) {
  if (auto it = appended.find(words); it != appended.end()) return it->second;
  return appended[words] = append(arena, words);
}

// Numbers of at most 8 bits as bytes, four to an arena word, as portable::slot_codes and portable::slot_classes read
// the words back.
template <class Numbers>
std::vector<uint32_t> as_bytes(const Numbers& numbers) {
  static_assert(std::endian::native == std::endian::little, "portable::slot_codes and slot_classes read the words as bytes");
  std::vector<uint32_t> packed((numbers.size() + 3) / 4);
  for (size_t i = 0; i < numbers.size(); ++i) packed[i / 4] |= uint32_t(numbers[i] & 0xFFu) << (8 * (i % 4));
  return packed;
}

uint32_t flatten(const ElementSampler& sampler, PortableCaseTables& out, std::map<const ElementSampler*, uint32_t>& done,
                 Appended& appended) {
  if (auto it = done.find(&sampler); it != done.end()) return it->second;
  portable::Sampler s;
  s.width = width_of(sampler);
  if (sampler.narrow()) {
    // The slots' codes (their low bytes) as bytes (Sampler::slots): a 12-bit sampler's table is then 4 KB, not 16.
    s.slots = append_once(out.arena, appended, as_bytes(sampler.slots));
  } else {
    s.mantissa_bits = uint32_t(sampler.type->mantissa_bits);
    s.pad_bits = uint32_t(sampler.type->pad_bits);
    s.slot_class = append_once(out.arena, appended, as_bytes(sampler.slot_class));   // Sampler::slot_class
    s.codes = append_once(out.arena, appended, sampler.all_codes);
    for (int c = 0; c < 16; ++c) {
      s.classes[c] = {sampler.class_offset[size_t(c)], sampler.class_size[size_t(c)], sampler.class_mask[size_t(c)],
                      sampler.class_force[size_t(c)]};
    }
  }
  out.samplers.push_back(s);
  return done[&sampler] = uint32_t(out.samplers.size() - 1);
}

// How the cancellation profile reads an operand's value: integers from their bits (signed or not, as the type's
// values say; every code is checked against them), other narrow types from a table of floats (every value of a type
// of 8 bits or fewer is one), wider ones from their bits.
void value_source(const TypePlan& type, PortableCaseTables& out, portable::ValueKind& kind, uint32_t& values) {
  kind = portable::ValueKind::table;
  values = 0;
  if (!type.is_float && !type.values.empty()) {
    const bool is_signed = type.values.back() < 0;   // the all-ones code: -1 where signed
    kind = is_signed ? portable::ValueKind::signed_integer : portable::ValueKind::unsigned_integer;
    values = uint32_t(type.bits);
    for (uint32_t code = 0; code < type.values.size(); ++code)
      if (portable::operand_value(out.tables, kind, values, code) != type.values[code])
        throw std::logic_error("the integer value of code " + std::to_string(code) + " of " +
                               std::string(ptx_name(type.type)) + " is not its type's");
    return;
  }
  if (!type.float_values.empty()) {
    std::vector<uint32_t> bits;
    for (float value : type.float_values) bits.push_back(portable::float_bits(value));
    values = append(out.arena, bits);
    return;
  }
  switch (type.type) {
    case ElemType::f16: kind = portable::ValueKind::f16; return;
    case ElemType::bf16: kind = portable::ValueKind::bf16; return;
    case ElemType::tf32: kind = portable::ValueKind::tf32; return;
    default: throw std::invalid_argument("no portable value for operand type " + std::string(ptx_name(type.type)));
  }
}

bool operand_drawable(ElemType type) {
  return info(type).bits <= 8 || type == ElemType::f16 || type == ElemType::bf16 || type == ElemType::tf32;
}

}  // namespace

bool portable_drawable(const Form& form, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (form.block_scale) return no("block-scale forms are drawn on the host only");
  if (form.c != ElemType::f32 && form.c != ElemType::f16 && form.c != ElemType::s32)
    return no("C of type " + std::string(ptx_name(form.c)) + " has no portable cancellation");
  if (!operand_drawable(form.a) || !operand_drawable(form.b)) return no("an operand type without a portable value");
  if (form.kind != Kind::none) return no("kind:: forms are drawn on the host only");
  return true;
}

PortableCaseTables portable_case_tables(const Form& form) {
  std::string why;
  if (!portable_drawable(form, &why)) throw std::invalid_argument(form.opcode + ": " + why);
  const FormPlan& plan = plan_for(form);
  PortableCaseTables out;
  portable::CaseTables& t = out.tables;
  const uint32_t m = uint32_t(form.shape.m), n = uint32_t(form.shape.n), k = uint32_t(form.shape.k);
  const uint32_t chunk_width = uint32_t(form.chunk_width), stored_per_chunk = uint32_t(plan.stored_per_chunk);
  // case_dims' logs are exact only for powers of two.
  const auto power_of_two = [&](uint32_t x, const char* what) {
    if (x == 0 || (x & (x - 1))) throw std::logic_error(form.opcode + ": " + what + " is not a power of two");
  };
  power_of_two(n, "N");
  power_of_two(k / 2, "K/2");
  if (chunk_width == 0 || k % chunk_width != 0) throw std::logic_error(form.opcode + ": K is not whole chunks");
  power_of_two(k / chunk_width, "K/chunk_width");
  power_of_two(stored_per_chunk, "stored elements per chunk");
  static_cast<portable::CaseDims&>(t) = portable::case_dims(m, n, k, chunk_width, stored_per_chunk);
  std::vector<uint32_t> profiles;
  for (Profile profile : plan.profiles) profiles.push_back(uint32_t(profile));
  t.profiles = append(out.arena, profiles);
  const auto& nibbles = plan.chunk_nibbles[0];
  if (nibbles.size() < 256) throw std::logic_error("chunk slots: fewer than 256");
  t.chunk_nibbles = append(out.arena, std::vector<uint32_t>(nibbles.begin(), nibbles.begin() + 256));
  std::vector<uint32_t> columns;
  for (const auto& within : plan.chunk_columns)
    for (uint8_t column : within) columns.push_back(column);
  if (columns.size() != portable::kChunkColumnWords) throw std::logic_error("chunk columns: not 16 nibbles of 4");
  t.chunk_columns = append(out.arena, columns);
  t.cancellation_profile = uint32_t(Profile::cancellation);
  static_assert(portable::kProfiles == int(Profile::count));
  std::map<const ElementSampler*, uint32_t> flattened;
  Appended appended;
  for (int p = 0; p < portable::kProfiles; ++p) {
    const ElementSampler* samplers[3] = {plan.a_samplers[size_t(p)], plan.b_samplers[size_t(p)], plan.c_samplers[size_t(p)]};
    for (int operand = 0; operand < 3; ++operand) t.sampler[operand][p] = flatten(*samplers[operand], out, flattened, appended);
    // The runs in draw_case's order: the profile field, the chunk nibbles, A, B, C, then 32 noise words.
    const uint32_t counts[portable::kRuns] = {1, t.nibble_count, t.a_count, t.b_count, t.c_count, 32};
    const uint32_t widths[portable::kRuns] = {8, uint32_t(kChunkSlotBits), width_of(*samplers[0]), width_of(*samplers[1]),
                                              width_of(*samplers[2]), 32};
    Cursor at;
    for (int run = 0; run < portable::kRuns; ++run) {
      t.runs[p][run] = at;
      t.run_width[p][run] = widths[run];
      t.run_shapes[p][run] = portable::run_shape(at, counts[run], widths[run]);
      at = portable::after_run(at, counts[run], widths[run]);
    }
  }
  value_source(*plan.a, out, t.a_kind, t.a_values);
  value_source(*plan.b, out, t.b_kind, t.b_values);
  t.c_kind = form.c == ElemType::f32 ? portable::AccumulatorKind::f32
             : form.c == ElemType::f16 ? portable::AccumulatorKind::f16 : portable::AccumulatorKind::s32;
  t.arena = out.arena.data();
  t.samplers = out.samplers.data();
  return out;
}

MmaCase portable_case(const PortableCaseTables& tables, const Form& form, int selector, uint64_t case_seed) {
  const portable::CaseTables& t = tables.tables;
  if (t.arena != tables.arena.data() || t.samplers != tables.samplers.data())
    throw std::logic_error("portable_case: tables that point elsewhere (copied without re-pointing)");
  MmaCase out;
  out.form = &form;
  out.selector = selector;
  const uint32_t profile = portable::profile_of(t, case_seed);
  auto fill = [&](std::vector<uint32_t>& codes, int run, uint32_t count) {
    codes.resize(count);
    portable::draw_codes(t, case_seed, profile, run, count, 0, 1, codes.data());   // as a GPU warp draws them
  };
  fill(out.nibbles, portable::run_nibbles, t.nibble_count);
  fill(out.a_compressed, portable::run_a, t.a_count);
  fill(out.b, portable::run_b, t.b_count);
  fill(out.c, portable::run_c, t.c_count);
  fill(out.metadata_noise, portable::run_noise, 32);
  if (profile == t.cancellation_profile) {
    const uint32_t chunks = t.k / t.chunk_width, stored = t.k / 2;
    const auto a = [&](uint32_t i, uint32_t s) { return out.a_compressed[i * stored + s]; };
    const auto b = [&](uint32_t row, uint32_t j) { return out.b[row * t.n + j]; };
    const auto nibble = [&](uint32_t i, uint32_t chunk) { return out.nibbles[i * chunks + chunk]; };
    std::vector<uint32_t> cancelled(out.c.size());
    for (uint32_t i = 0; i < t.m; ++i)
      for (uint32_t j = 0; j < t.n; ++j)
        cancelled[i * t.n + j] = portable::cancelled_c(t, i, j, out.c[i * t.n + j], a, b, nibble);
    out.c = cancelled;
  }
  return out;
}

}  // namespace mmasp::gen
