// oracle/case_file: case files round-trip, errors name the field, and every hand-written case agrees with its
// hand derivation.
#include <gtest/gtest.h>
#include "oracle/input_file.h"
#include <unistd.h>
#include <fstream>

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
  EXPECT_NE(message(bad).find("/form: a string is expected, not object"), std::string::npos) << message(bad);
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

// Issue #16: every value outside its type's range, every misspelled key and every wrong JSON type is an error that
// names the JSON pointer of the value and says what was expected — never read as something else.
TEST(CaseFile, EveryMalformedValueIsAnErrorNamingItsPointer) {
  using nlohmann::json;
  const json good = {{"schema", "mmasp-case/1"},
                     {"form", "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"},
                     {"a", {{"fill", 0}}},
                     {"b", {{"fill", 0}}}};
  const json block_scale = {{"schema", "mmasp-case/1"},
                            {"form", "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"},
                            {"a", {{"fill", 0}}},
                            {"b", {{"fill", 0}}}};
  struct Entry {
    const char* what;
    json base;
    json::json_pointer at;
    json value;
    const char* expected;   // in the message
  };
  const std::vector<Entry> table = {
      {"a selector of 1.5", good, json::json_pointer("/selector"), 1.5, "/selector: a whole number"},
      {"a selector of true", good, json::json_pointer("/selector"), true, "/selector: a whole number"},
      {"a selector of 2^32", good, json::json_pointer("/selector"), 4294967296ull, "/selector: a whole number"},
      {"a selector of 1e300", good, json::json_pointer("/selector"), 1e300, "/selector: a whole number"},
      {"a set row of 4294967300", good, json::json_pointer("/b"), json{{"fill", 0}, {"set", {{4294967300ull, 0, 1}}}},
       "/b/set/0/0: a whole number from 0 to 31"},
      {"a set row of -1", good, json::json_pointer("/b"), json{{"fill", 0}, {"set", {{-1, 0, 1}}}}, "/b/set/0/0: a whole number"},
      {"a set that is not an array", good, json::json_pointer("/b"), json{{"fill", 0}, {"set", 3}}, "/b/set: an array"},
      {"a misspelled fill", good, json::json_pointer("/b"), json{{"fil", 0}}, "/b: expected an array of rows"},
      {"an unknown key in a fill matrix", good, json::json_pointer("/b"), json{{"fill", 0}, {"sett", 1}}, "/b/sett: unknown key"},
      {"an s8 code wider than s8", good, json::json_pointer("/b/fill"), "0x1ff", "/b/fill: code 0x1ff is wider than s8"},
      {"an s8 value outside s8", good, json::json_pointer("/b/fill"), 128, "/b/fill: 128 is outside s8"},
      {"an s8 value of 2^64-1", good, json::json_pointer("/b/fill"), 18446744073709551615ull, "outside s8"},
      {"a fraction for an integer type", good, json::json_pointer("/b/fill"), 0.5, "/b/fill: integer types take integers"},
      {"a code with a blank", good, json::json_pointer("/b/fill"), "0x 1", "/b/fill: cannot read code"},
      {"a matrix row of the wrong length", good, json::json_pointer("/c"), json::array({json::array({1})}), "/c: has 1 rows"},
      {"an unknown top-level key", good, json::json_pointer("/expected_stauts"), "Pass", "/expected_stauts: unknown key"},
      {"an expected_status that is not a string", good, json::json_pointer("/expected_status"), 3, "/expected_status: a string is expected"},
      {"an unknown expected_status", good, json::json_pointer("/expected_status"), "Passed", "/expected_status: unknown status"},
      {"a comment that is a number", good, json::json_pointer("/comment"), 7, "/comment: a string or an array"},
      {"a comment line that is a number", good, json::json_pointer("/comment"), json::array({"x", 7}), "/comment/1: a string is expected"},
      {"a metadata_noise of the wrong length", good, json::json_pointer("/metadata_noise"), json::array({"0x0"}), "/metadata_noise: needs 32"},
      {"scale ids on a form without block scale", good, json::json_pointer("/scale_ids"), json{{"byte_a", 0}}, "/scale_ids: the form has no block scale"},
      {"a scale id of 2^40", block_scale, json::json_pointer("/scale_ids"), json{{"byte_a", 1099511627776ull}}, "/scale_ids/byte_a: a whole number"},
      {"a misspelled scale id", block_scale, json::json_pointer("/scale_ids"), json{{"byte_aa", 1}}, "/scale_ids/byte_aa: unknown key"},
      {"a schema of another version", good, json::json_pointer("/schema"), "mmasp-case/2", "/schema: must be"},
      {"a form that is a number", good, json::json_pointer("/form"), 5, "/form: a string is expected, not number"},
  };
  for (const Entry& entry : table) {
    json bad = entry.base;
    bad[entry.at] = entry.value;
    std::string message = "no error";
    try {
      parse_case_file(bad);
    } catch (const CaseFileError& error) {
      message = error.what();
    }
    EXPECT_NE(message.find(entry.expected), std::string::npos) << entry.what << ": " << message;
  }
  // Out-of-range selectors and scale ids are legitimate undefined-behaviour cases, read as they are.
  json ub = good;
  ub["selector"] = 7;
  EXPECT_EQ(parse_case_file(ub).test.selector, 7);
}

// Issue #16: the file itself — numbers the JSON parser would change, a directory, a file too large to be a case, a cut-off
// file — each named, with the file.
TEST(CaseFile, FileLevelProblemsNameTheFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mmasp-case-file-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string head = R"({"schema": "mmasp-case/1", "form": "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "a": {"fill": 0}, )";
  const auto message = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    try {
      load_case_file(dir / name);
    } catch (const CaseFileError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("underflow.json", head + R"("b": {"fill": 1e-400}})").find("underflow.json: /b/fill: the number 1e-400"),
            std::string::npos);
  EXPECT_NE(message("overflow.json", head + R"("b": {"fill": 1e400}})").find("overflow.json: "), std::string::npos);
  EXPECT_NE(message("cut.json", head + R"("b": {"fill": )").find("cut.json: ends early"), std::string::npos);
  EXPECT_EQ(message("zero.json", head + R"("b": {"fill": 0e5}, "c": {"fill": -0.0}})"), "no error");
  std::string large = head + R"("comment": ")" + std::string(kMaxCaseFileBytes, 'x') + R"(", "b": {"fill": 0}})";
  EXPECT_NE(message("large.json", large).find("more than the"), std::string::npos);
  try {
    load_case_file(dir);
    ADD_FAILURE() << "a directory was read as a case file";
  } catch (const CaseFileError& error) {
    EXPECT_NE(std::string(error.what()).find("a directory"), std::string::npos) << error.what();
  }
  fs::remove_all(dir);
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
