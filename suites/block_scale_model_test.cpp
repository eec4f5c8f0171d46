// Issue #31: the bit-exact model of the block-scale forms (kind::mxf8f6f4, mxf4, mxf4nvf4): where the scale factors
// multiply and how a ue4m3 scale product is rounded, each worked by hand on element [0][0]; what the model claims
// equivalent; records made before the scale parameters existed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "generators/model_probes.h"
#include "judge/case_judgement.h"
#include "oracle/model_record_file.h"
#include "oracle/number_format.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

const char* const kMxf4 = "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0";
const char* const kNvf4 =
    "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3";

uint32_t f32_bits(double value) {
  const float f = float(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// Row 0, column 0: C = c; the products a x b at the first `count` stored positions; the scale of row 0 and of column
// 0 in scale block 0 given as codes (every other scale 1.0).
MmaCase products_case(const Form& form, double c, int count, double a, double b, uint32_t scale_a0, uint32_t scale_b0) {
  MmaCase test = zero_case(form);
  test.c[0] = *encode(form.c, c);
  for (int s = 0; s < count; ++s) {
    const int column = logical_column(form, test.nibbles.data(), s);
    test.a_compressed[size_t(s)] = *encode(form.a, a);
    test.b[size_t(column * form.shape.n)] = *encode(form.b, b);
  }
  test.scale_a[0] = scale_a0;
  test.scale_b[0] = scale_b0;
  return test;
}

// Sixteen products of 0.75 x 2^-25 each beside C = 1 (scale 2^-25 on row 0), 25 fraction bits, one block of 32: per
// product, each product alone falls below the kept bits and is dropped (D = 1); summed per scale block first, their
// sum 12 x 2^-25 is kept (D = 1 + 3 x 2^-23).
TEST(BlockScaleModel, TheScaleAfterTheBlockSumKeepsWhatEachProductAloneWouldLose) {
  const Form& form = *find_form(kMxf4);
  const MmaCase test = products_case(form, 1.0, 16, 1.5, 0.5, 127 - 25, 127);
  ModelParameters p;
  p.block_products = 32;
  p.fraction_bits = 25;
  p.scale_placement = ScalePlacement::product;
  EXPECT_EQ(model_result(test, p)[0], f32_bits(1.0));
  p.scale_placement = ScalePlacement::block_sum;
  EXPECT_EQ(model_result(test, p)[0], f32_bits(1.0 + 3 * std::ldexp(1.0, -23)));
  // Both agree where nothing is lost: the scale 2^-10 keeps every product.
  const MmaCase kept = products_case(form, 1.0, 16, 1.5, 0.5, 127 - 10, 127);
  const uint32_t expected = f32_bits(1.0 + 12 * std::ldexp(1.0, -10));
  EXPECT_EQ(model_result(kept, p)[0], expected);
  p.scale_placement = ScalePlacement::product;
  EXPECT_EQ(model_result(kept, p)[0], expected);
}

// One product 1 x 1 scaled by 1.875 (ue4m3 0x3F) x 1.625 (0x3D) = 195/64, 8 significant bits: kept whole at 8 bits;
// at 7 a tie (to even: 196/64; toward zero: 194/64); at 6 above the half (197/64 -> 196/64 or 192/64).
TEST(BlockScaleModel, AUe4m3ScaleProductIsRoundedToItsBitsAsDeclared) {
  const Form& form = *find_form(kNvf4);
  const MmaCase test = products_case(form, 0.0, 1, 1.0, 1.0, 0x3F, 0x3D);
  const auto d_with = [&](const char* changes) { return model_result(test, with_changes(ModelParameters{}, changes))[0]; };
  EXPECT_EQ(d_with("scale_bits=8"), f32_bits(195.0 / 64));
  EXPECT_EQ(d_with("scale_bits=8,scale_rounding=toward-zero"), f32_bits(195.0 / 64));
  EXPECT_EQ(d_with("scale_bits=7"), f32_bits(196.0 / 64));
  EXPECT_EQ(d_with("scale_bits=7,scale_rounding=toward-zero"), f32_bits(194.0 / 64));
  EXPECT_EQ(d_with("scale_bits=6"), f32_bits(196.0 / 64));
  EXPECT_EQ(d_with("scale_bits=6,scale_rounding=toward-zero"), f32_bits(192.0 / 64));
  EXPECT_EQ(d_with("scale_bits=6,scale_placement=block-sum"), f32_bits(196.0 / 64));
}

TEST(BlockScaleModel, ScaleSpecials) {
  const Form& form = *find_form(kMxf4);
  ModelParameters p;
  // A NaN scale (ue8m0 0xFF) makes every product it scales NaN; D is the canonical NaN.
  EXPECT_EQ(model_result(products_case(form, 1.0, 1, 1.0, 1.0, 0xFF, 127), p)[0], 0x7FFFFFFFu);
  p.scale_placement = ScalePlacement::block_sum;
  EXPECT_EQ(model_result(products_case(form, 1.0, 1, 1.0, 1.0, 127, 0xFF), p)[0], 0x7FFFFFFFu);
  // A zero ue4m3 scale makes its products zero: D = C.
  const Form& nvf4 = *find_form(kNvf4);
  EXPECT_EQ(model_result(products_case(nvf4, 2.0, 4, 6.0, 6.0, 0x00, 0x38), ModelParameters{})[0], f32_bits(2.0));
  // The extremes: ue8m0 2^127 x 2^-127 is 1.
  EXPECT_EQ(model_result(products_case(form, 0.0, 1, 1.0, 1.0, 0xFE, 0x00), ModelParameters{})[0], f32_bits(1.0));
  // A ue4m3 code with bit 7 set is not a ue4m3 value: the model refuses it rather than guess.
  EXPECT_THROW(model_result(products_case(nvf4, 0.0, 1, 1.0, 1.0, 0x80, 0x38), ModelParameters{}), std::invalid_argument);
}

TEST(BlockScaleModel, TheScaleParametersAreIdleWithoutBlockScaleAndTheRoundingOnUe8m0) {
  const Form& f16 = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const Form& mxf4 = *find_form(kMxf4);
  const Form& nvf4 = *find_form(kNvf4);
  const ModelParameters base;
  EXPECT_TRUE(equivalence_on(f16, base, with_changes(base, "scale_placement=block-sum,scale_bits=4")));
  EXPECT_TRUE(equivalence_on(mxf4, base, with_changes(base, "scale_bits=4,scale_rounding=toward-zero")));
  EXPECT_FALSE(equivalence_on(mxf4, base, with_changes(base, "scale_placement=block-sum")));
  EXPECT_FALSE(equivalence_on(nvf4, base, with_changes(base, "scale_bits=6")));
  EXPECT_TRUE(equivalence_on(nvf4, base, with_changes(base, "scale_rounding=toward-zero")));   // 8 bits: exact
  // What characterize searches: the scale parameters only where they can matter.
  const auto names = [](const Form& form) {
    std::string out;
    for (const ModelParameter* p : parameters_of(form)) out += std::string(p->name) + " ";
    return out;
  };
  EXPECT_EQ(names(f16).find("scale_"), std::string::npos);
  EXPECT_NE(names(mxf4).find("scale_placement"), std::string::npos);
  EXPECT_EQ(names(mxf4).find("scale_bits"), std::string::npos);
  EXPECT_NE(names(nvf4).find("scale_rounding"), std::string::npos);
}

// The probes tell every value of the scale parameters apart from every other that is not equivalent on the form
// (so characterize settles them by probe, not by random cases), from several starting points of the other parameters.
TEST(BlockScaleModel, TheProbesTellEveryScaleParameterValueApart) {
  for (const char* opcode : {kMxf4, kNvf4,
                             "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X."
                             "f32.e4m3.e2m1.f32.ue8m0"}) {
    const Form& form = *find_form(opcode);
    const std::vector<gen::ModelProbe> probes = gen::model_probes(form, 0);
    size_t told = 0;
    for (const char* others : {"", "fraction_bits=13", "block_products=32,alignment=exponent-sum", "fraction_bits=24,block_rounding=nearest-even",
                               "shifted_out=nearest-even,block_products=8"})
      for (const char* scale : {"", "scale_bits=6", "scale_bits=5,scale_rounding=toward-zero", "scale_placement=block-sum"}) {
        ModelParameters base = with_changes(published_dense_hypothesis(form), others);
        base = with_changes(base, scale);
        for (const ModelParameter* parameter : parameters_of(form)) {
          if (!std::string(parameter->name).starts_with("scale_")) continue;
          for (const std::string& value : parameter->values) {
            ModelParameters other = base;
            parameter->set(other, value);
            if (other == base || equivalence_on(form, base, other)) continue;
            bool apart = false;
            for (const auto& probe : probes) {
              const auto x = model_prediction(probe.test, base), y = model_prediction(probe.test, other);
              if (x && y && *x != *y) {
                apart = true;
                break;
              }
            }
            EXPECT_TRUE(apart) << opcode << ": no probe tells " << parameter->name << "=" << value << " from "
                               << base.str();
            ++told;
          }
        }
      }
    EXPECT_GT(told, 0u) << opcode;
  }
}

// A record made before the scale parameters existed still reads for forms without block scale (where no value of
// them changes D); for a block-scale form they must be there.
TEST(BlockScaleModel, RecordsWithoutScaleParametersReadOnlyWhereTheyCannotMatter) {
  ModelRecordFile r;
  r.architecture = "sm_120";
  r.emulated = true;
  r.made = "2026-11-26T00:00:00Z";
  for (const char* opcode : {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", kMxf4}) {
    RecordedForm f;
    f.form = opcode;
    f.selectors = {0};
    f.parameters = published_dense_hypothesis(*find_form(opcode));
    r.forms.push_back(f);
  }
  nlohmann::json document = to_json(r);
  for (const char* name : {"scale_placement", "scale_bits", "scale_rounding"}) document["forms"][0]["parameters"].erase(name);
  EXPECT_NO_THROW(parse_model_record(document, "old.json"));
  document["forms"][1]["parameters"].erase("scale_placement");
  try {
    parse_model_record(document, "old.json");
    FAIL() << "a block-scale form without scale_placement was read";
  } catch (const ModelRecordError& error) {
    EXPECT_NE(std::string(error.what()).find("/forms/1/parameters/scale_placement"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace mmasp
