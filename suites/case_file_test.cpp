// oracle/case_file: case files round-trip, errors name the field, and every hand-written case agrees with its
// hand derivation.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "oracle/case_file.h"
#include "oracle/classification.h"
#include "oracle/number_format.h"
#include "oracle/reference.h"

namespace mmasp {
namespace {

TEST(CaseFile, WritesAndReadsBackTheSameCase) {
  CaseFile file = load_case_file(std::filesystem::path(MMASP_SOURCE_DIR) / "suites/cases/mxf4nvf4-ue4m3-scales.json");
  CaseFile back = parse_case_file(to_json(file));
  EXPECT_EQ(back.test.form, file.test.form);
  EXPECT_EQ(back.test.a_compressed, file.test.a_compressed);
  EXPECT_EQ(back.test.nibbles, file.test.nibbles);
  EXPECT_EQ(back.test.b, file.test.b);
  EXPECT_EQ(back.test.scale_a, file.test.scale_a);
  EXPECT_EQ(back.test.scale_b, file.test.scale_b);
  EXPECT_EQ(back.expected_d, file.expected_d);
}

TEST(CaseFile, ErrorsNameTheField) {
  auto message = [](const nlohmann::json& json) {
    try {
      parse_case_file(json);
    } catch (const CaseFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  nlohmann::json good = {{"schema", "mmasp-case/1"},
                         {"form", "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
                         {"a", {{"fill", 0}}},
                         {"b", {{"fill", 0}}}};
  EXPECT_EQ(message(good), "no error");
  auto bad = good;
  bad["form"] = "mma.sp.bogus";
  EXPECT_NE(message(bad).find("form"), std::string::npos);
  bad = good;
  bad["b"] = {{"fill", 0.1}};
  EXPECT_NE(message(bad).find("not exactly representable in f16"), std::string::npos);
  bad = good;
  bad["form"] = nlohmann::json::object();  // found by fuzz/case_file_fuzz.cpp: a JSON type error escaped
  EXPECT_NE(message(bad).find("wrong JSON type"), std::string::npos);
  bad = good;
  bad["a"] = {{"fill", 0}, {"set", {{0, 0, 1}, {0, 1, 1}, {0, 2, 1}}}};
  EXPECT_NE(message(bad).find("more non-zero"), std::string::npos);
  // Codes wider than their type, or with blanks or signs inside, are errors, never masked or skipped (issue #16).
  for (const char* code : {"0xffffffff", "0x10000", "0x 3c00", "0x-1", "0x", "0b2"}) {
    bad = good;
    bad["b"] = {{"fill", code}};
    const std::string text = message(bad);
    EXPECT_NE(text.find("b"), std::string::npos) << code;
    EXPECT_TRUE(text.find("wider than f16") != std::string::npos || text.find("cannot read code") != std::string::npos)
        << code << ": " << text;
  }
  bad = good;
  bad["b"] = {{"fill", "0x3c00"}};
  EXPECT_EQ(message(bad), "no error");
}

// Every hand-written case in suites/cases/: the reference gives the hand-derived expected_d, and classification the
// expected_status.
class HandWrittenCase : public testing::TestWithParam<std::string> {};

TEST_P(HandWrittenCase, ReferenceAgreesWithTheHandDerivation) {
  CaseFile file = load_case_file(GetParam());
  ASSERT_FALSE(file.comment.empty()) << "a hand-written case derives its result in its comment";
  std::optional<std::span<const uint32_t>> observed;
  if (file.observed_d) observed = std::span<const uint32_t>(*file.observed_d);
  if (file.expected_d) {
    ReferenceResult result = reference(file.test);
    for (size_t i = 0; i < result.d.size(); ++i) {
      const uint32_t expected = (*file.expected_d)[i];
      const uint32_t got = result.d[i].rounded_code;
      if (info(file.test.form->d).is_float && std::isnan(decode_to_double(file.test.form->d, expected)))
        EXPECT_EQ(result.d[i].kind, ExpectedElement::Kind::nan) << "element " << i;
      else
        EXPECT_EQ(got, expected) << "element [" << i / 8 << "][" << i % 8 << "]";
    }
  }
  if (file.expected_status) {
    ASSERT_TRUE(file.observed_d) << "expected_status needs observed_d";
    EXPECT_EQ(name(judge(file.test, *file.observed_d).status), name(*file.expected_status));
  }
  EXPECT_TRUE(file.expected_d || file.expected_status) << "the case checks nothing";
}

std::vector<std::string> hand_written_cases() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(MMASP_SOURCE_DIR) / "suites/cases"))
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

INSTANTIATE_TEST_SUITE_P(SuitesCases, HandWrittenCase, testing::ValuesIn(hand_written_cases()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string stem = std::filesystem::path(info.param).stem().string();
                           for (char& c : stem)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return stem;
                         });

TEST(HandWrittenCases, CoverEveryFamily) {
  std::set<std::string> families;
  for (const auto& path : hand_written_cases()) families.insert(load_case_file(path).test.form->family);
  for (const char* family : {"f16", "bf16", "tf32", "fp8", "f8f6f4", "mxf8f6f4", "mxf4", "mxf4nvf4", "int8", "int4"})
    EXPECT_TRUE(families.count(family)) << "no hand-written case for " << family;
}

}  // namespace
}  // namespace mmasp
