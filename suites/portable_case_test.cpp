// The portable generator (generators/portable_case.h, the one a GPU runs) draws exactly the bulk generator's cases:
// every element of every case, for every form it can draw, for every selector and every profile.
#include <gtest/gtest.h>

#include <set>

#include "generators/bulk.h"
#include "generators/case_tables.h"
#include "generators/stream_salts.h"
#include "suites/cancellation_inputs.h"

namespace mmasp {
namespace {

void expect_same_case(const MmaCase& bulk, const MmaCase& portable, const std::string& where) {
  EXPECT_EQ(bulk.nibbles, portable.nibbles) << where << ": nibbles";
  EXPECT_EQ(bulk.a_compressed, portable.a_compressed) << where << ": A";
  EXPECT_EQ(bulk.b, portable.b) << where << ": B";
  EXPECT_EQ(bulk.c, portable.c) << where << ": C";
  EXPECT_EQ(bulk.metadata_noise, portable.metadata_noise) << where << ": metadata noise";
  EXPECT_EQ(bulk.selector, portable.selector) << where;
}

TEST(PortableCase, DrawsTheBulkGeneratorsCasesForEveryDrawableForm) {
  int forms = 0;
  std::set<gen::Profile> profiles_seen;
  for (const Form& form : instruction_space()) {
    if (!gen::portable_drawable(form)) continue;
    ++forms;
    const gen::PortableCaseTables tables = gen::portable_case_tables(form);
    for (int selector : form.selectors) {
      gen::Options options;
      options.selector = selector;
      const gen::CaseSeeds seeds((uint64_t(selector) + 5) * 0x9E3779B97F4A7C15ull, form);
      for (uint64_t index = 0; index < 120; ++index) {
        MmaCase bulk;
        gen::BulkGenerator(seeds.of(index)).next(form, bulk, options);
        const MmaCase portable = gen::portable_case(tables, form, selector, seeds.of(index));
        const std::string where = form.opcode + " selector " + std::to_string(selector) + " case " + std::to_string(index);
        expect_same_case(bulk, portable, where);
        profiles_seen.insert(gen::Profile(gen::portable::profile_of(tables.tables, seeds.of(index))));
        if (HasFailure()) return;
      }
    }
  }
  EXPECT_GE(forms, 40) << "every sm_90 form without block scale should be drawable";
  EXPECT_EQ(profiles_seen.size(), size_t(gen::Profile::count)) << "every profile drawn at least once";
}

// A warp draws a run stream output by stream output (draw_codes, lanes 0..31): together its lanes write every element
// once, each the code that drawing it alone (drawn) gives; every way of dealing a run to the lanes (Dealing), on every
// form.
TEST(PortableCase, AWarpsLanesDrawEveryElementOfARunOnce) {
  for (const Form& form : instruction_space()) {
    if (!gen::portable_drawable(form)) continue;
    const gen::PortableCaseTables tables = gen::portable_case_tables(form);
    const gen::portable::CaseTables& t = tables.tables;
    const gen::CaseSeeds seeds(99, form);
    for (uint64_t index = 0; index < 24; ++index) {
      const uint64_t seed = seeds.of(index);
      const uint32_t profile = gen::portable::profile_of(t, seed);
      const std::pair<int, uint32_t> runs[] = {{gen::portable::run_nibbles, t.nibble_count}, {gen::portable::run_a, t.a_count},
                                               {gen::portable::run_b, t.b_count}, {gen::portable::run_c, t.c_count},
                                               {gen::portable::run_noise, 32}};
      using gen::portable::Dealing;
      for (const Dealing dealing : {Dealing::outputs, Dealing::slot_zero_apart, Dealing::consecutive_draws})
      for (const auto& [run, count] : runs) {
        std::vector<uint32_t> out(count), writes(count);
        for (uint32_t lane = 0; lane < 32; ++lane) {
          std::vector<uint32_t> mine(count, 0xDEADBEEFu);
          if (dealing == Dealing::outputs) gen::portable::draw_codes<Dealing::outputs>(t, seed, profile, run, count, lane, 32, mine.data());
          if (dealing == Dealing::slot_zero_apart) gen::portable::draw_codes<Dealing::slot_zero_apart>(t, seed, profile, run, count, lane, 32, mine.data());
          if (dealing == Dealing::consecutive_draws) gen::portable::draw_codes<Dealing::consecutive_draws>(t, seed, profile, run, count, lane, 32, mine.data());
          for (uint32_t i = 0; i < count; ++i)
            if (mine[i] != 0xDEADBEEFu || gen::portable::drawn(t, seed, profile, run, i) == 0xDEADBEEFu) {
              out[i] = mine[i];
              ++writes[i];
            }
        }
        for (uint32_t i = 0; i < count; ++i) {
          ASSERT_EQ(out[i], gen::portable::drawn(t, seed, profile, run, i))
              << form.opcode << " run " << run << " element " << i << " (dealing " << int(dealing) << ")";
          if (run == gen::portable::run_noise)   // the kernel's own way to its lane's noise
            ASSERT_EQ(gen::portable::noise_of_lane(t, seed, profile, i), out[i]) << form.opcode << " noise of lane " << i;
          ASSERT_LE(writes[i], 32u);
          if (gen::portable::drawn(t, seed, profile, run, i) != 0xDEADBEEFu)
            ASSERT_EQ(writes[i], 1u) << form.opcode << " run " << run << " element " << i;
        }
      }
    }
  }
}

// The integer forms' cancellation C, in 32-bit integers, is the one the doubles give (cancelled_c_of_values, the bulk
// generator's arithmetic), for codes that are uniform over every code and for the extremes: every product at its
// largest magnitude, of either sign. Every integer form has integer kinds, and no other form does.
TEST(PortableCase, IntegerCancellationIsTheDoubleSum) {
  int integer_forms = 0;
  for (const Form& form : instruction_space()) {
    if (!gen::portable_drawable(form)) continue;
    const gen::PortableCaseTables tables = gen::portable_case_tables(form);
    const gen::portable::CaseTables& t = tables.tables;
    ASSERT_EQ(gen::portable::integer_cancellation(t), !info(form.a).is_float) << form.opcode;
    if (!gen::portable::integer_cancellation(t)) continue;
    ++integer_forms;
    const uint32_t stored = t.k / 2, chunks = t.k / t.chunk_width;
    const uint32_t a_codes = 1u << t.a_values, b_codes = 1u << t.b_values;
    gen::SplitMixDraw draw(uint64_t(integer_forms) * 1000003u);
    for (int trial = 0; trial < 40; ++trial) {
      // Trials 0-8: every A code one extreme and every B code one: 100..0 (the most negative where signed), 11..1
      // (the largest unsigned) or 011..1 (the largest signed), each with each.
      const auto extreme = [&](uint32_t codes, int which) { return which == 0 ? codes / 2 : which == 1 ? codes - 1 : codes / 2 - 1; };
      std::vector<uint32_t> a(t.a_count), b(t.b_count), nibbles(t.m * chunks);
      for (auto& x : a) x = trial < 9 ? extreme(a_codes, trial % 3) : uint32_t(draw.bits() % a_codes);
      for (auto& x : b) x = trial < 9 ? extreme(b_codes, trial / 3) : uint32_t(draw.bits() % b_codes);
      for (auto& x : nibbles) x = t.arena[t.chunk_nibbles + uint32_t(draw.bits() & 0xFF)] & 0xFFu;
      const auto a_of = [&](uint32_t i, uint32_t s) { return a[i * stored + s]; };
      const auto b_of = [&](uint32_t row, uint32_t j) { return b[row * t.n + j]; };
      const auto nibble = [&](uint32_t i, uint32_t chunk) { return nibbles[i * chunks + chunk]; };
      const auto a_value = [&](uint32_t i, uint32_t s) { return gen::portable::operand_value(t, t.a_kind, t.a_values, a_of(i, s)); };
      const auto b_value = [&](uint32_t row, uint32_t j) { return gen::portable::operand_value(t, t.b_kind, t.b_values, b_of(row, j)); };
      for (uint32_t i = 0; i < t.m; ++i)
        for (uint32_t j = 0; j < t.n; ++j)
          ASSERT_EQ(gen::portable::cancelled_integer_c(t, i, j, a_of, b_of, nibble),
                    gen::portable::cancelled_c_of_values(t, i, j, 0xDEADBEEFu, a_value, b_value, nibble))
              << form.opcode << " trial " << trial << " C[" << i << "][" << j << "]";
    }
  }
  EXPECT_GE(integer_forms, 24) << "every sm_90 integer form without block scale";
}

// cancelled_c_row_of_values (the GPU-resident kernels' cancellation, four adjacent elements of a row at once) gives
// every element the code cancelled_c_of_values gives it, for every drawable form: codes uniform over every code
// (Inf and NaN among them, so that some sums are not finite and keep their drawn C), and operands all at one extreme
// code (the all-ones code and the one below the sign bit: NaN, the largest finite or integer extremes).
TEST(PortableCase, RowCancellationIsEachElements) {
  constexpr int kRow = 4;
  int forms = 0;
  for (const Form& form : instruction_space()) {
    if (!gen::portable_drawable(form)) continue;
    const gen::PortableCaseTables tables = gen::portable_case_tables(form);
    const gen::portable::CaseTables& t = tables.tables;
    ASSERT_EQ(t.n % kRow, 0u) << form.opcode;
    ++forms;
    const uint32_t stored = t.k / 2, chunks = t.k / t.chunk_width;
    const uint64_t a_codes = uint64_t(1) << info(form.a).bits, b_codes = uint64_t(1) << info(form.b).bits;
    gen::SplitMixDraw draw(uint64_t(forms) * 7919u);
    int differing_sums = 0;
    for (int trial = 0; trial < 24; ++trial) {
      const test::CancellationInputs in = test::cancellation_inputs(t, trial, a_codes, b_codes, draw);
      const std::vector<uint32_t> &a = in.a, &b = in.b, &c = in.c, &nibbles = in.nibbles;
      const auto nibble = [&](uint32_t i, uint32_t chunk) { return nibbles[i * chunks + chunk]; };
      const auto a_value = [&](uint32_t i, uint32_t s) { return gen::portable::operand_value(t, t.a_kind, t.a_values, a[i * stored + s]); };
      const auto b_value = [&](uint32_t row, uint32_t j) { return gen::portable::operand_value(t, t.b_kind, t.b_values, b[row * t.n + j]); };
      const auto b_values = [&](uint32_t row, uint32_t j0, double* out) {
        for (int e = 0; e < kRow; ++e) out[e] = b_value(row, j0 + uint32_t(e));
      };
      for (uint32_t i = 0; i < t.m; ++i)
        for (uint32_t j0 = 0; j0 < t.n; j0 += kRow) {
          uint32_t row[kRow];
          for (int e = 0; e < kRow; ++e) row[e] = c[i * t.n + j0 + uint32_t(e)];
          gen::portable::cancelled_c_row_of_values<kRow>(t, i, j0, row, a_value, b_values, nibble);
          for (int e = 0; e < kRow; ++e) {
            const uint32_t j = j0 + uint32_t(e), drawn = c[i * t.n + j];
            const uint32_t expected = gen::portable::cancelled_c_of_values(t, i, j, drawn, a_value, b_value, nibble);
            ASSERT_EQ(row[e], expected) << form.opcode << " trial " << trial << " C[" << i << "][" << j << "]";
            differing_sums += expected != drawn;
          }
        }
    }
    EXPECT_GT(differing_sums, 0) << form.opcode << ": no element was cancelled, so nothing was compared";
  }
  EXPECT_GE(forms, 88) << "the drawable forms when this test was written (every sm_90 form and more)";
}

TEST(PortableCase, EverySm90FormIsDrawable) {
  const Target sm90 = *find_target("sm_90a");
  for (const Form& form : instruction_space()) {
    if (!form.legal_on(sm90, form.version_for(sm90))) continue;
    std::string why;
    EXPECT_TRUE(gen::portable_drawable(form, &why)) << form.opcode << ": " << why;
  }
}

TEST(PortableCase, RunsOfFieldsStartWhereTheDrawLeftOff) {
  // Three 12-bit fields, an output, then 8-bit fields: 5 fields of 12 bits fit an output (4 bits dropped), a whole
  // output leaves the current word alone, and 8-bit fields continue in the word's remaining 28 bits.
  using gen::portable::Cursor;
  Cursor at = gen::portable::after_run({}, 3, 12);
  EXPECT_EQ(at.next, 1u);
  EXPECT_EQ(at.word, 0u);
  EXPECT_EQ(at.left, 28u);
  at = gen::portable::after_run(at, 2, 64);
  EXPECT_EQ(at.next, 3u);
  EXPECT_EQ(at.left, 28u);
  const uint64_t seed = 77;
  gen::SplitMixDraw draw(seed);
  for (int i = 0; i < 3; ++i) draw.field(12);
  draw.bits();
  draw.bits();
  for (uint32_t i = 0; i < 20; ++i)
    EXPECT_EQ(draw.field(8), gen::portable::draw_in_run(seed, at, i, 8)) << "field " << i;
}

// A run of 32-bit fields that a warp's lanes take four draws each (draw_run_of_width, C of every m16n8 form with a
// 32-bit accumulator) gives each draw the bits draw_in_run gives it, whether the current word holds a field or not,
// wherever the run starts; so does the generic dealing of outputs, for counts that are not four a lane.
TEST(PortableCase, FourDrawsALaneAreTheRunsDraws) {
  gen::SplitMixDraw pick(2026);
  int runs = 0;
  for (int trial = 0; trial < 64; ++trial) {
    gen::portable::Cursor at;
    at.next = uint32_t(pick.bits() % 1000) + 1;
    at.word = at.next - 1;
    at.left = trial % 2 == 0 ? 0u : 32u + uint32_t(pick.bits() % 32);   // from_word 0, or 1 with 32-63 bits left
    const uint32_t lanes = trial % 4 < 2 ? 32u : 1u + uint32_t(pick.bits() % 40);
    for (const uint32_t count : {4 * lanes, 4 * lanes + 1, 4 * lanes - 1}) {
      const gen::portable::RunShape shape = gen::portable::run_shape(at, count, 32);
      ASSERT_EQ(shape.from_word, at.left / 32);
      const uint64_t seed = pick.bits();
      std::vector<uint64_t> got(count, ~uint64_t(0));
      std::vector<int> puts(count, 0);
      for (uint32_t lane = 0; lane < lanes; ++lane)
        gen::portable::draw_run_of_width<32, gen::portable::Dealing::consecutive_draws>(seed, at, shape, count, lane, lanes, [&](uint32_t i, uint64_t r) {
          ASSERT_LT(i, count);
          got[i] = r;
          ++puts[i];
        });
      for (uint32_t i = 0; i < count; ++i) {
        ASSERT_EQ(puts[i], 1) << "draw " << i << " of " << count << ", " << lanes << " lanes, left " << at.left;
        ASSERT_EQ(got[i], gen::portable::draw_in_run(seed, at, i, 32)) << "draw " << i << " of " << count << ", " << lanes
                                                                         << " lanes, left " << at.left;
      }
      ++runs;
    }
  }
  EXPECT_EQ(runs, 192);
}

// A run of 8-bit fields that a warp's 32 lanes take two draws each (the 64 metadata nibbles of every m16n8k16 form)
// gives each draw the bits draw_in_run gives it, whatever part of a field the current word's rest holds (0 to 7
// fields, and the bits below one); so does the generic dealing of outputs for 63 and 65 draws, and for fewer lanes.
TEST(PortableCase, TwoDrawsALaneAreTheRunsDraws) {
  gen::SplitMixDraw pick(2027);
  int runs = 0, from_words = 0;
  for (int trial = 0; trial < 256; ++trial) {
    gen::portable::Cursor at;
    at.next = uint32_t(pick.bits() % 1000) + 1;
    at.word = at.next - 1;
    at.left = uint32_t(trial % 64);   // every amount of the current word left, from_word 0 to 7
    const uint32_t lanes = trial % 4 < 3 ? 32u : 1u + uint32_t(pick.bits() % 40);
    for (const uint32_t count : {2 * lanes, 2 * lanes + 1, 2 * lanes - 1}) {
      const gen::portable::RunShape shape = gen::portable::run_shape(at, count, 8);
      if (lanes == 32 && count == 64) from_words |= 1 << shape.from_word;
      const uint64_t seed = pick.bits();
      std::vector<uint64_t> got(count, ~uint64_t(0));
      std::vector<int> puts(count, 0);
      for (uint32_t lane = 0; lane < lanes; ++lane)
        gen::portable::draw_run_of_width<8, gen::portable::Dealing::consecutive_draws>(seed, at, shape, count, lane, lanes, [&](uint32_t i, uint64_t r) {
          ASSERT_LT(i, count);
          got[i] = r;
          ++puts[i];
        });
      for (uint32_t i = 0; i < count; ++i) {
        ASSERT_EQ(puts[i], 1) << "draw " << i << " of " << count << ", " << lanes << " lanes, left " << at.left;
        ASSERT_EQ(got[i], gen::portable::draw_in_run(seed, at, i, 8)) << "draw " << i << " of " << count << ", " << lanes
                                                                        << " lanes, left " << at.left;
      }
      ++runs;
    }
  }
  EXPECT_EQ(runs, 768);
  EXPECT_EQ(from_words, 0xFF) << "every from_word, 0 to 7, with 32 lanes and 64 draws";
}

// The kernels' class-list entry (class_entry of field_index_at_top) is code_of's (index * size) >> index_bits, for
// every mantissa width a 32-bit field can have, every index at its extremes and at random, and list sizes from 1 to
// 2^32 - 1.
TEST(PortableCase, ClassEntryIsTheScaledIndex) {
  gen::SplitMixDraw pick(31);
  uint64_t checked = 0;
  for (uint32_t mantissa_bits = 0; mantissa_bits <= 23; ++mantissa_bits) {
    const uint32_t index_bits = 24 - mantissa_bits, index_mask = (1u << index_bits) - 1;
    for (int trial = 0; trial < 20000; ++trial) {
      const uint32_t field = trial < 4 ? (trial % 2 == 0 ? 0u : ~0u) : uint32_t(pick.bits());
      const uint32_t size = trial < 2 ? ~0u : trial < 4 ? 1u : uint32_t(pick.bits() >> (pick.bits() % 32));
      const uint32_t index = (field >> mantissa_bits) & index_mask;
      const uint32_t want = uint32_t((uint64_t(index) * size) >> index_bits);
      ASSERT_EQ(gen::portable::class_entry(gen::portable::field_index_at_top(field, mantissa_bits), size), want)
          << "field " << field << ", size " << size << ", mantissa bits " << mantissa_bits;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 24u * 20000u);
}

}  // namespace
}  // namespace mmasp
